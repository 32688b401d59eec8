"""What the agent asks back when a question points at a conversation that is not there."""

ASK_EN = "Which one do you mean? Please say what you are asking about (a product, policy or topic)."
ASK_ZH = "您指的是哪一个？请说明您想问的具体对象（产品、政策或主题）。"
