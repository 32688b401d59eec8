"""Embedding the agent in other LangChain agents: as a subgraph node and as a tool."""

from __future__ import annotations

from typing import Any

from adaptive_rag import Context, Services, build_graph
from adaptive_rag.graph.as_tool import as_tool
from fake_sources import KeywordRetriever, kb_docs
from fakes import ScriptedChatModel
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import END, START, MessagesState, StateGraph


def rag_graph() -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel.with_script()
    services = Services(chat_model=model, retriever=KeywordRetriever(docs=kb_docs()), no_web=True)
    return build_graph(services=services), model


def host_with(rag: Any) -> Any:
    host = StateGraph(MessagesState)
    host.add_node("rag", rag)
    host.add_edge(START, "rag")
    host.add_edge("rag", END)
    return host.compile()


def test_as_a_subgraph_the_answer_is_appended_to_the_host_messages() -> None:
    rag, _ = rag_graph()
    out = host_with(rag).invoke({"messages": [HumanMessage("How big is the Zephyr X2 kettle?")]})
    assert [type(m) for m in out["messages"]] == [HumanMessage, AIMessage]
    assert out["messages"][-1].content.startswith(
        "The Zephyr X2 kettle has a 1.7 litre capacity [1]."
    )
    assert "Zephyr X2 (products/zephyr.md)" in out["messages"][-1].content  # a host sees sources
    assert set(out) == {"messages"}  # the host's schema keeps only what it knows


def test_host_context_reaches_the_subgraph() -> None:
    rag, model = rag_graph()
    host_with(rag).invoke(
        {"messages": [HumanMessage("How big is the Zephyr X2 kettle?")]}, context=Context(k=1)
    )
    rag_prompt = next(user for role, user in model.calls if role == "rag")
    assert rag_prompt.count("<source ") == 1


def test_streaming_through_the_host_with_subgraphs() -> None:
    rag, _ = rag_graph()
    chunks = list(
        host_with(rag).stream(
            {"messages": [HumanMessage("How big is the Zephyr X2 kettle?")]},
            stream_mode=["updates", "messages"],
            subgraphs=True,
        )
    )
    inner = [(ns, mode, data) for ns, mode, data in chunks if ns and ns[0].startswith("rag")]
    nodes = [next(iter(data)) for _, mode, data in inner if mode == "updates"]
    assert nodes[:4] == ["intake", "recall", "classify", "retrieve"]
    assert nodes[-2:] == ["finalize", "remember"]  # a first answer is offered to the cache
    generated = [
        data[0].content
        for _, mode, data in inner
        if mode == "messages" and data[1].get("langgraph_node") == "generate"
    ]
    assert "".join(generated) == "The Zephyr X2 kettle has a 1.7 litre capacity [1]."


class ToolCallingHost(BaseChatModel):
    """A host model that calls the knowledge-base tool once, then answers with what it got."""

    @property
    def _llm_type(self) -> str:
        return "tool-calling-host"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        results = [m for m in messages if isinstance(m, ToolMessage)]
        if results:
            message = AIMessage(content=f"According to the knowledge base: {results[-1].content}")
        else:
            call = {
                "name": "knowledge_base",
                "args": {"question": "How big is the Zephyr X2 kettle?"},
                "id": "call-1",
            }
            message = AIMessage(content="", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=message)])


def test_as_a_tool_in_a_langchain_agent() -> None:
    from langchain.agents import create_agent

    rag, _ = rag_graph()
    tool = as_tool(rag)
    assert tool.name == "knowledge_base" and "question" in tool.args
    agent = create_agent(ToolCallingHost(), tools=[tool])
    out = agent.invoke({"messages": [HumanMessage("Kettle size?")]})
    tool_message = next(m for m in out["messages"] if isinstance(m, ToolMessage))
    assert "The Zephyr X2 kettle has a 1.7 litre capacity [1]." in tool_message.content
    assert "[1] Zephyr X2 (products/zephyr.md)" in tool_message.content
    assert tool_message.artifact["route"]["category"] == "simple"
    assert out["messages"][-1].content.startswith("According to the knowledge base")


def test_tool_direct_call_passes_context() -> None:
    rag, model = rag_graph()
    tool = as_tool(rag, context=Context(k=1))
    result = tool.invoke({"question": "How big is the Zephyr X2 kettle?"})
    assert "Sources:" in result
    assert next(user for role, user in model.calls if role == "rag").count("<source ") == 1
