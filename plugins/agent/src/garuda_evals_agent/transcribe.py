"""What a turn writes to its transcript: every request, response, tool call and result."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from garuda_evals.api import Transcript, Usage
from garuda_evals_agent.messages import ModelResponse, ToolCall, ToolSpec
from garuda_evals_agent.providers.base import ClientOptions
from garuda_evals_agent.tools.registry import ToolOutcome

_UNCHANGED = ("system", "tools")


class TurnLog:
    """Writes a turn's events as JSON lines.

    The system prompt and the tools are written once (``start``); each ``request`` holds
    the request body without them and only the messages added since the previous request
    (``messagesFrom`` is the index of the first one).
    """

    def __init__(self, transcript: Transcript, subagent: str | None = None) -> None:
        self.transcript = transcript
        self.sent = 0
        self.subagent = subagent

    def _write(self, kind: str, data: dict[str, Any]) -> None:
        if self.subagent is not None:
            data = {"subagent": self.subagent, **data}
        self.transcript.write(kind, data)

    def start(
        self,
        model: str,
        system: str,
        tools: list[ToolSpec],
        max_steps: int,
        options: ClientOptions,
        max_tokens: int,
    ) -> None:
        """The turn's fixed parts."""
        self._write(
            "start",
            {
                "model": model,
                "system": system,
                "tools": [asdict(tool) for tool in tools],
                "maxSteps": max_steps,
                "maxTokens": max_tokens,
                "keepThinking": options.keep_thinking,
                "batch": options.batch,
            },
        )

    def request(self, step: int, wire_request: dict[str, Any]) -> None:
        """A model call's request body, as it is sent (once per step, retries included)."""
        body = {k: v for k, v in wire_request.items() if k not in _UNCHANGED}
        messages = body.pop("messages", [])
        self._write(
            "request",
            {
                "step": step,
                "body": body,
                "messagesFrom": self.sent,
                "messages": messages[self.sent :],
            },
        )
        self.sent = len(messages)

    def response(self, step: int, response: ModelResponse) -> None:
        """A model call's response, as received (assembled from the stream)."""
        self._write(
            "response",
            {
                "step": step,
                "stopReason": response.stop_reason,
                "providerStopReason": response.provider_stop_reason,
                "usage": asdict(response.usage),
                "priceFactor": response.price_factor,
                "body": response.wire_response,
            },
        )

    def retry(self, step: int, attempt: int, wait_s: float, error: BaseException) -> None:
        """A failed attempt that will be retried."""
        self._write(
            "retry",
            {"step": step, "attempt": attempt, "waitS": round(wait_s, 3), "error": str(error)},
        )

    def failed(self, step: int, attempt: int, error: BaseException) -> None:
        """The last failed attempt: no retry is left."""
        self._write("failed", {"step": step, "attempt": attempt, "error": str(error)})

    def tool_call(self, call: ToolCall) -> None:
        """A tool call the model made."""
        self._write("tool_call", {"id": call.id, "name": call.name, "input": call.arguments})

    def tool_result(self, call: ToolCall, outcome: ToolOutcome) -> None:
        """What the tool returned (a denial included)."""
        self._write(
            "tool_result",
            {
                "id": call.id,
                "name": call.name,
                "isError": outcome.is_error,
                "denied": outcome.denied,
                "content": outcome.content,
            },
        )

    def notice(self, text: str) -> None:
        """A notice (step limit, output limit)."""
        self._write("notice", {"message": text})

    def end(self, stop: str, steps: int, usage: Usage, error: BaseException | None = None) -> None:
        """The turn's end."""
        data: dict[str, Any] = {"stopReason": stop, "steps": steps, "usage": usage.model_dump()}
        if error is not None:
            data["error"] = f"{type(error).__name__}: {error}"
        self._write("end", data)

    @staticmethod
    def tool_line(call: ToolCall, outcome: ToolOutcome) -> str:
        """The live line for a tool call."""
        args = call.arguments
        what = args.get("command") if call.name == "run_command" else args.get("path", "")
        what = " ".join(str(what or "").split())[:100]
        if outcome.denied:
            return f"{call.name} denied: {what}"
        return f"{call.name} {what}{' (error)' if outcome.is_error else ''}".rstrip()
