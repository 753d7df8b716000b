package dev.fakbattery.conformance.rules;

import static dev.fakbattery.conformance.rules.KitRule.Kind.OPTIONAL;
import static dev.fakbattery.conformance.rules.KitRule.Kind.REQUIRED;
import static dev.fakbattery.conformance.rules.KitRule.Kind.STOCHASTIC;

import org.apiguardian.api.API;

/**
 * The wire rules (W01..W28) of {@code WireVerification}, each run for each engine dialect and mode: the index RULES.md's
 * table "The rules" is generated from.
 *
 * @since 0.6
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public enum WireRule implements KitRule {

	W01(REQUIRED, "model alias reaches upstream, engine model comes back on every chunk",
			"The client's `model` alias reaches the upstream unchanged, and every chunk (every body) carries the model the engine says it served.",
			"both", "never",
			"the gateway rewrites `model` (to its own default, the served name, or on later chunks)"),

	W02(REQUIRED, "allow kept unchanged",
			"An allowed call is delivered with the upstream's id, name and arguments, byte-identical.",
			"both", "never",
			"argument re-serialisation (spacing, key order, `\\uXXXX`), fragments lost or re-split wrongly"),

	W03(REQUIRED, "deny dropped",
			"A denied call is not delivered (neither by id nor by a `deny_*` name), alone, beside other calls, or among interleaved parallel calls.",
			"both", "never",
			"deny not applied in one mode; held deltas released regardless of the verdict"),

	W04(REQUIRED, "transform redacted",
			"A transformed call is delivered with its id and arguments `{\"redacted\":true}`, and no byte of the original arguments remains.",
			"both", "never",
			"transform applied to the record only; original fragments streamed before the rewrite"),

	W05(REQUIRED, "content alongside tool calls kept",
			"Content sent beside tool calls is delivered unchanged (also beside interleaved calls).",
			"both", "never",
			"content dropped when tool calls are present; a denied call's text moved into the content"),

	W06(REQUIRED, "parallel calls adjudicated independently, survivors renumbered densely",
			"Parallel calls are adjudicated independently; survivors keep their order and are renumbered densely (`index` 0..n-1).",
			"both", "never",
			"one verdict applied to all calls; gaps in `index` after a deny"),

	W07(REQUIRED, "finish_reason consistent with surviving calls",
			"`finish_reason` is `tool_calls` only if a call survives; `stop` when every call was denied.",
			"both", "never",
			"finish chunk passed through unchanged after denying every call"),

	W08(REQUIRED, "usage kept, on every answer",
			"The usage object (stream: the `choices:[]` usage chunk) of every normal answer is delivered unchanged, or absent when the engine sent none.",
			"both", "never",
			"usage chunk dropped because it has no choices; usage recomputed"),

	W09(REQUIRED, "upstream error statuses, bodies and Retry-After pass through",
			"Upstream error statuses and bodies pass through unchanged: vLLM nested, vLLM legacy flat, SGLang flat, 401 `{\"error\":\"Unauthorized\"}`, 429 with its `Retry-After` header, 503, and a 500 (body included).",
			"both", "never",
			"errors rewrapped, statuses mapped (5xx to 200 or 502), bodies normalised, response headers dropped"),

	W10(REQUIRED, "in-stream error frames pass through and [DONE] ends the stream",
			"An in-stream error frame (`data: {\"error\":...}` on HTTP 200) is delivered, and `[DONE]` still ends the stream.",
			"stream", "non-stream",
			"error frames dropped as unparseable chunks; stream closed without `[DONE]`"),

	W11(REQUIRED, "malformed or truncated upstream gives 502, or an error frame and no finish, and completes no call",
			"A malformed or truncated upstream answer gives 502 with an OpenAI-shaped error, or, once the stream started, an error frame; no `finish_reason` is delivered and no call but an allowed one already streaming appears.",
			"both", "never",
			"held partial calls flushed at the end of the stream; non-JSON upstream passed through as 200"),

	W12(REQUIRED, "poisoned tool result quarantined",
			"A tool result carrying an injection and a secret is quarantined: the secret reaches neither the upstream nor the response.",
			"both", "never",
			"result admission not applied; quarantined content echoed back in the response"),

	W13(REQUIRED, "no byte of a denied call, in any mode",
			"Not one byte of a denied call, in any mode: not its id, its name, or its arguments (the interleaved fixture's denied call carries `KITDENYTOKEN4e1f` in one fragment, so an argument-only leak shows), neither as sent nor in a JSON string a client decodes back to it (`\\\"` and `\\u` escapes, a string that is JSON itself).",
			"both", "never",
			"deltas forwarded as they arrive and only the assembled call dropped; the record or a log line on the wire; arguments moved into content; a vendor debug object forwarded with the model's raw text in it (llama.cpp's non-stream `__verbose.content`)"),

	W14(STOCHASTIC, "streaming not buffered",
			"Streaming is not buffered: of 20 content deltas the upstream writes 50 ms apart, at most 5 reach the client more than 150 ms later than the least delayed one, in most of the judged paced streams: the rule passes once 3 streams were not held while fewer were, and fails once 3 were held while fewer were not (so a gateway that buffers four streams in five fails). A stream in which the kit's own upstream fell behind its pace (more than 5 of its writes less than 25 ms after the one before) is not judged; with no verdict after 8 streams the rule is PENDING_MEASUREMENT naming the readings, or NOT_JUDGED when no stream was delivered.",
			"stream", "non-stream",
			"whole-response buffering, output buffers flushed on a timer (a 500 ms window fails; a 300 ms one usually does), Nagle (`TCP_NODELAY`)"),

	W15(REQUIRED, "X-Request-Id passed to the upstream",
			"`X-Request-Id` from the client reaches the upstream unchanged.",
			"both", "never",
			"header allow-list too narrow"),

	W16(REQUIRED, "bad client input gives 400",
			"Bad client input (a body that is not JSON; empty `messages`) gives 400 with an OpenAI-shaped error (or, for a body that is not JSON, the engine's own 400 relayed unchanged).",
			"both", "never",
			"500 or 502 for client errors; a body that is not an `{\"error\":{...}}` object"),

	W17(OPTIONAL, "adjudication record, asked for: one entry per proposed call",
			"(declared record) Asked with `X-Adjudication-Record: include`, the adjudication record has one entry per proposed call with its action: ALLOW, DENY, TRANSFORM.",
			"both", "the gateway does not declare the record",
			"record missing in one mode; the header not honoured; denied calls missing from the record"),

	W18(OPTIONAL, "engine prefix cache reset after a quarantine",
			"(declared record) After a quarantine the gateway asks the engine to reset its prefix cache (vLLM `POST /reset_prefix_cache`, SGLang `POST /flush_cache`).",
			"both", "the gateway does not declare the record",
			"reset skipped, or sent to the wrong path for the dialect"),

	W19(REQUIRED, "the official OpenAI SDK reads every answer as the kit does",
			"The official OpenAI Java SDK (`com.openai:openai-java` 4.8.0) reads every answer the way the kit does: `create` for bodies; `createStreaming`, iterating chunks and choices' deltas, with the SDK's `ChatCompletionAccumulator`. Content, calls (id, name, arguments), `finish_reason` and completion tokens agree; an error answer makes the SDK throw, with the same HTTP status.",
			"both",
			"an answer whose engine original the SDK cannot read either (for example `continuous_usage_stats` streams: the accumulator takes a chunk with usage for the last one) is not judged and is listed in the report",
			"an `event:` of the gateway's own whose data is not a chunk (the SDKs read every `data:` as a chunk), extra top-level objects, chunks without `choices`, anything after `[DONE]`"),

	W20(REQUIRED, "every data event is a chunk or an error frame, [DONE] once and last",
			"Every `data:` event of a stream is a `chat.completion.chunk` (object, id, created, model, `choices` array) or an error frame; `[DONE]` comes exactly once, last, with nothing after it.",
			"stream", "non-stream; answers that are not HTTP 200",
			"a record or status event on the wire, a second `[DONE]`, trailing bytes"),

	W21(REQUIRED, "chunks and bodies of allowed answers pass unchanged, unknown keys included",
			"Answers with nothing to adjudicate away (text, an allowed call, an allowed call whose chunks carry every optional key: `reasoning`, `reasoning_content`, `logprobs`, `token_ids`, `stop_reason`, `matched_stop`, `kv_transfer_params`, `service_tier`) reach the client unchanged, chunk for chunk (body for body); every chunk of a mixed answer keeps an upstream chunk's id, `created` and `system_fingerprint`.",
			"both", "never",
			"unknown keys dropped, chunks re-serialised with changes, `created` re-stamped, usage chunk dropped"),

	W22(REQUIRED, "per-chunk usage (continuous_usage_stats) kept on every forwarded chunk",
			"With `continuous_usage_stats`, every delivered chunk that carries text or tool-call deltas keeps one of the upstream's usage objects, in non-decreasing order.",
			"stream", "non-stream",
			"`usage` nulled on re-emitted or held chunks; a running count recomputed"),

	W23(REQUIRED, "exactly the surviving calls: none extra, none twice, dense indexes, a well-formed stream",
			"Exactly the surviving calls are delivered, none extra and none twice (ids and names as proposed), numbered 0..n-1 (a lone call too), and their deltas assemble without a violation (no delta after the finish, no renamed call); interleaved deltas of parallel calls included.",
			"both", "never",
			"duplicated header deltas, index gaps, a lone call numbered 1, interleaved deltas merged into the wrong call"),

	W24(REQUIRED, "arguments with Unicode, escapes, nested JSON and 64 KiB values kept byte for byte",
			"An allowed call's arguments with Unicode, `\\uXXXX` escapes (one split across fragments), a nested JSON string, a control character and a 64 KiB value arrive byte for byte.",
			"both", "never",
			"escapes decoded or added, strings cut at a buffer size, arguments re-serialised"),

	W25(REQUIRED, "reasoning, content and finish_reason length kept",
			"A reasoning model's answer cut by `max_tokens` keeps its reasoning (`reasoning` / `reasoning_content`), its content and `finish_reason: length`.",
			"both", "never",
			"`length` turned into `stop`; reasoning deltas dropped as unknown"),

	W26(REQUIRED, "a long pause of the upstream does not cut the stream",
			"A 5 s pause of the upstream in the middle of a stream (after the reasoning) does not cut it: the client gets the whole answer and `[DONE]`, no error frame.",
			"stream", "non-stream",
			"an idle or read timeout shorter than a model's thinking pause"),

	W27(REQUIRED, "request parameters reach the upstream unchanged",
			"`tools`, `tool_choice`, `stream_options`, `temperature`, `max_tokens` and `stream` reach the upstream as the client sent them.",
			"both", "never",
			"request re-serialised through a schema that drops `stream_options` or renames `tool_choice`"),

	W28(REQUIRED, "engine-specific request parameters reach the upstream unchanged",
			"The sampling and decoding parameters a vLLM or SGLang user sends beyond OpenAI's (`top_k`, `min_p`, `repetition_penalty`, `chat_template_kwargs`, vLLM's `structured_outputs`, `response_format` with a JSON schema) reach the upstream as the client sent them.",
			"both", "never",
			"request re-serialised through OpenAI's schema, which knows none of them: sampling and structured output silently fall back to the engine's defaults");

	WireRule(Kind kind, String title, String must, String modes, String skippedWhen, String ifItFails) {
		this.text = new Text(kind, title, must, modes, skippedWhen, ifItFails);
	}

	private final Text text;

	@Override
	public Text text() {
		return text;
	}

	/**
	 * By what the rule checks: the gateway's verdicts on calls and results (deny, transform, quarantine, the survivors
	 * renumbered, a finish that matches them: W03, W04, W06, W07, W12, W13, W23) are adjudication; the kit's record and
	 * the cache reset it asks for (W17, W18) are the record; everything else is the wire kept (relay): model, an allowed
	 * call's id and arguments, content, usage, errors, streaming, framing, headers, request parameters.
	 */
	@Override
	public ConformanceClass conformanceClass() {
		return switch (this) {
			case W03, W04, W06, W07, W12, W13, W23 -> ConformanceClass.ADJUDICATION;
			case W17, W18 -> ConformanceClass.RECORD;
			default -> ConformanceClass.RELAY;
		};
	}

	/**
	 * W09 and W11 judge what the client gets for an upstream error or a broken upstream answer: the request reaching the
	 * upstream is their evidence. W16 judges the gateway's own 400 for input it must refuse. Every other rule needs its
	 * normal answers delivered.
	 */
	@Override
	public Evidence evidence() {
		return switch (this) {
			case W09, W11 -> Evidence.FORWARDED;
			case W16 -> Evidence.ANSWERED;
			default -> Evidence.DELIVERED;
		};
	}
}
