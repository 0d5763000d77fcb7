"""Thin adapters that put shapeclip into agent frameworks: each module imports its framework
only when it is itself imported, and the frameworks are optional extras
(`pip install '.[hermes]'`, `'.[openai-agents]'`, `'.[langgraph]'` in a checkout).

- `hermes`: a Hermes agent plugin, found through the `hermes_agent.plugins` entry point.
- `openai_agents`: `compress_tool(tool)` wraps an OpenAI Agents SDK `FunctionTool`.
- `langgraph`: `ToolResultCompressor` is `wrap_tool_call` middleware for LangGraph's `ToolNode`.
"""
