// The smallest chat page on the official SDK's useStream hook (what Agent Chat UI is built on):
// a question box, the streamed conversation, and the answer's cited sources.
import React, { useState } from "react";
import { createRoot } from "react-dom/client";
import { useStream } from "@langchain/langgraph-sdk/react";

const params = new URLSearchParams(window.location.search);

function text(content) {
  if (typeof content === "string") return content;
  return (content || []).map((part) => (typeof part === "string" ? part : part.text || "")).join("");
}

function App() {
  const [draft, setDraft] = useState("");
  const [thread, setThread] = useState(null);
  const stream = useStream({
    apiUrl: params.get("api"),
    assistantId: params.get("assistant") || "agent",
    messagesKey: "messages",
    threadId: thread,
    onThreadId: setThread,
  });
  const sources = (stream.values?.sources || []).filter((s) => s.cited);
  const send = (event) => {
    event.preventDefault();
    stream.submit({ messages: [{ type: "human", content: draft }] });
    setDraft("");
  };
  return (
    <main>
      <h1>adaptive-rag</h1>
      <section id="messages">
        {stream.messages.map((m) => (
          <p key={m.id} className={`message ${m.type}`} data-id={m.id}>
            <b>{m.type === "human" ? "You" : "Agent"}:</b> {text(m.content)}
          </p>
        ))}
      </section>
      <section id="sources">
        {sources.map((s) => (
          <p key={s.id} className="source">[{s.id}] {s.title} ({s.source})</p>
        ))}
      </section>
      <form onSubmit={send}>
        <input id="question" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button id="send" disabled={stream.isLoading}>Ask</button>
        <span id="status">{stream.isLoading ? "streaming" : "idle"}</span>
      </form>
    </main>
  );
}

createRoot(document.getElementById("root")).render(<App />);
