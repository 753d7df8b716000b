package dev.fakbattery.conformance.rules;

import static dev.fakbattery.conformance.rules.KitRule.Kind.REQUIRED;

import org.apiguardian.api.API;

/**
 * The client rules (C01..C04) of {@code ClientVerification}: client libraries users run read every answer of the kit
 * the way their documentation reads streams and tool calls, and make of it what the kit's own reading makes (W19 is the
 * same rule for the official Java SDK). The index RULES.md's table "Client rules" is generated from.
 *
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.7")
public enum ClientRule implements KitRule {

	C01(REQUIRED, "LangChain4j's OpenAI client reads every answer as the kit does",
			"LangChain4j's OpenAI client (`dev.langchain4j:langchain4j-open-ai` 1.19.0) reads every answer as the kit does: `OpenAiChatModel.chat` for bodies, `OpenAiStreamingChatModel.chat` with a `StreamingChatResponseHandler` for streams (its partial texts, then its complete response). Content, calls (id, name, arguments byte for byte), `finish_reason` (as its `FinishReason`) and output tokens agree; an error answer makes it fail, with the same HTTP status.",
			"both",
			"an in-stream error frame (LangChain4j does not raise one: it keeps the text before it; W10 judges the frame), and an answer whose engine original it cannot read either, are not judged and are listed in the report",
			"an `event:` of the gateway's own whose data is not JSON (it parses every `data:` line); a JSON event that is no chunk, deltas without `index`, a missing or doubled `[DONE]` it reads as the kit does"),

	C02(REQUIRED, "the official OpenAI Node SDK reads every answer as the kit does",
			"The official OpenAI Node SDK (`openai` 6.49.0 on Node.js) reads every answer as the kit does: `chat.completions.create` for bodies; the `chat.completions.stream` helper for streams, iterating the chunks, then `finalChatCompletion()`. Content, calls (id, name, arguments byte for byte), `finish_reason` and completion tokens agree; an error answer makes it throw, with the same HTTP status.",
			"both",
			"`node` (20 or newer) is not on the PATH, or the clients are not installed in `kit.node.dir`, or `kit.node.clients=off`: then PENDING_MEASUREMENT, never a pass (the reason and the fix are named; `kit.node.clients=required` fails instead as a misconfiguration); an answer whose engine original it cannot read either is not judged and is listed in the report",
			"an `event:` of the gateway's own (it reads every `data:` as a chunk: not JSON, or no `choices`, and it throws), `\"usage\": null` on the last chunk (it keeps the last chunk's usage), tool-call deltas without `index` (the arguments are lost); a missing or doubled `[DONE]` it reads as the kit does"),

	C03(REQUIRED, "the Vercel AI SDK reads every answer as the kit does",
			"The Vercel AI SDK (`ai` 6.0.325 with `@ai-sdk/openai-compatible` 2.0.92 on Node.js) reads every answer as the kit does: `generateText` for bodies; `streamText`, iterating `fullStream` (text deltas, tool calls, the finish, errors) for streams; tools offered without `execute`. Content, calls (id, name, arguments as JSON), the raw `finish_reason` and output tokens agree; an error answer makes it fail, with the same HTTP status.",
			"both",
			"`node` is not on the PATH, or the clients are not installed in `kit.node.dir` (PENDING_MEASUREMENT, as C02); an answer whose engine original it cannot read either is not judged and is listed in the report",
			"an `event:` of the gateway's own whose data is not a chunk (not JSON, or JSON its chunk schema rejects), arguments that are not JSON; deltas without `index`, a missing or doubled `[DONE]` it reads as the kit does"),

	C04(REQUIRED, "LangChain.js reads every answer as the kit does",
			"LangChain.js's `ChatOpenAI` (`@langchain/openai` 1.5.8, `@langchain/core` 1.4.0 on Node.js) reads every answer as the kit does: tools bound with `bindTools`; `invoke` for bodies; `stream`, adding the message chunks together (`concat`), for streams. Content, calls (id, name, arguments as JSON), `finish_reason` and output tokens agree; an error answer makes it fail, with the same HTTP status.",
			"both",
			"`node` is not on the PATH, or the clients are not installed in `kit.node.dir` (PENDING_MEASUREMENT, as C02); an answer whose engine original it cannot read either is not judged and is listed in the report",
			"an `event:` of the gateway's own whose data is not JSON, tool-call deltas without `index` (each fragment becomes a call of its own); a JSON event without `choices` it skips, a missing or doubled `[DONE]` it reads as the kit does");

	ClientRule(Kind kind, String title, String must, String modes, String skippedWhen, String ifItFails) {
		this.text = new Text(kind, title, must, modes, skippedWhen, ifItFails);
	}

	private final Text text;

	@Override
	public Text text() {
		return text;
	}

	/** Every client rule is of the clients class. */
	@Override
	public ConformanceClass conformanceClass() {
		return ConformanceClass.CLIENTS;
	}
}
