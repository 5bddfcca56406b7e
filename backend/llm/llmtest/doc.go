// Package llmtest is a scripted fake of an OpenAI-compatible (DeepSeek)
// chat-completions server, for tests and manual tries.
//
// A script is a list of Responses, served one per request in order:
//
//	srv := llmtest.New(t,
//		llmtest.Reply(llmtest.Reasoning("Let me look.", 4),
//			llmtest.ToolCall("call_1", "bash", `{"command":"ls"}`, 3),
//			llmtest.Usage(0, 120, 30, 5)),
//		llmtest.RateLimited("1"),
//		llmtest.Reply(llmtest.Text("Done.", 2), llmtest.Usage(100, 40, 8, 0)),
//	)
//	client := llm.NewClient(llm.ClientConfig{BaseURL: srv.URL()})
//	...
//	srv.AssertConsumed(t)
//
// Reply builds a DeepSeek-shaped stream from Parts (Text, Reasoning,
// ToolCall, Usage, Finish, Pace, KeepAlive, Malformed, Disconnect, Stall,
// NoDone); HTTPError and RateLimited answer with an error; Replay sends a
// recorded .chunks.jsonl or .sse file. EchoKey and EchoAuthorization in an
// error body or a Data payload become the request's key and Authorization
// header, as servers that quote a rejected key back send them.
//
// The shapes other servers send have Parts too (providers.md §2):
// ToolCallAt (whole calls at any index, with or without ids: Ollama, vLLM,
// restarted indexes, repeated ids), ReasoningField (Ollama's reasoning),
// ReasoningBoth (vLLM's reasoning and reasoning_content), ContentParts
// (Mistral's content arrays), ErrorObject (vLLM's top-level error chunk),
// RawUsage (counts of any type), Finish("eos"), Queued (keep-alives until
// the client leaves), EndWithoutFinish, Data (any payload) and
// CRLineEndings.
//
// Every request is recorded (Requests) and validated the way DeepSeek
// validates it: each tool result must answer a pending tool call of an
// earlier assistant message, every tool call must be answered before the
// next user or assistant message, no call id may be empty or used twice,
// an assistant message replaying tool calls this server sent together with
// reasoning must pass that reasoning back as reasoning_content, and, in a
// request with thinking enabled, every assistant message with tool calls
// must carry a non-empty reasoning_content (DeepSeek's 400, in its words:
// ReasoningContentRefusal). A violating request is answered with HTTP 400
// and recorded (Violations); so is a request that arrives after the script
// ran out, unless WithFallback supplies an answer.
//
// Rules add what one kind of server refuses beyond that, in its own words
// and error shape: OpenAI (DeepSeek's fields, unknown message fields,
// max_tokens to reasoning models), SGLang (reasoning_effort other than
// low, medium or high) and VLLM(window) (a prompt and output bound beyond
// the window). Enforce them with WithRules or Server.Enforce.
//
// # Script files
//
// LoadScript reads the same scripts from JSON, for cmd/fakellm:
//
//	{"responses": [
//	  {"reasoning": "Checking.", "text": "Hello!", "chunk": 4, "delay_ms": 30,
//	   "usage": {"hit": 0, "miss": 120, "output": 12, "reasoning": 3}},
//	  {"tool_calls": [{"id": "call_1", "name": "bash", "arguments": "{\"command\":\"ls\"}"}]},
//	  {"status": 429, "retry_after": "2"},
//	  {"status": 401, "body": "{\"error\":{\"message\":\"Authentication Fails\"}}"},
//	  {"keep_alive": 3, "text": "slow start"},
//	  {"text": "partial", "disconnect": true},
//	  {"stall": true},
//	  {"replay": "../../testdata/deepseek/deepseek-chat-v31_content-then-tool-call.sse"},
//	  {"data": ["{\"object\":\"error\",\"message\":\"boom\"}"]},
//	  {"queued_ms": 500},
//	  {"text": "lone CRs", "cr": true, "finish": "eos"}
//	]}
//
// Fields of a response: status, body and retry_after make an HTTP error
// (status other than 200); replay sends a recording (path relative to the
// script file); otherwise a stream is built from keep_alive (count of
// comments sent first), queued_ms (keep-alives at that interval until the
// client leaves, and nothing else), data (raw payloads), reasoning, text,
// tool_calls (each in three argument fragments), then the faults
// malformed, disconnect, stall and no_done, then usage and finish (default
// stop, or tool_calls when there are tool calls); cr ends lines with a
// lone CR. chunk is the delta size in runes (0: one delta) and delay_ms the
// pause before each event.
package llmtest
