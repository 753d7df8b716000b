package dev.fakbattery.conformance.wire;

import java.util.List;
import java.util.Locale;

import dev.fakbattery.wire.Dialect;

/**
 * What the kit's upstream replays, chosen by a marker in the last user message
 * ({@code kit:<scenario>}). Tool names follow the kit's policy convention.
 */
enum Scenario {
	TEXT("chat-text"),
	ALLOW("kit/tool-call-allow"),
	MIXED("kit/tool-call-mixed"),
	DENY_ONLY("kit/tool-call-deny-only"),
	/** Parallel calls whose deltas interleave; the denied one carries a distinctive token in one fragment. */
	INTERLEAVED("kit/tool-call-interleaved"),
	/** Unicode, {@code \\uXXXX} escapes, a nested JSON string and a 64 KiB value in an allowed call's arguments. */
	EXOTIC("kit/tool-call-exotic"),
	/** MIXED streamed with {@code continuous_usage_stats}: usage on every chunk. */
	CONTINUOUS_USAGE("kit/tool-call-continuous-usage", "kit/tool-call-mixed"),
	/** An allowed call whose chunks carry every optional key filled in (reasoning, logprobs, token ids, stop reasons). */
	EXTRAS("kit/tool-call-extras"),
	/** A reasoning model's answer cut by max_tokens: reasoning, then content, finish_reason length. */
	REASONING("kit/reasoning-length"),
	QUARANTINE("chat-text"),
	/** Paced by the kit's front: content deltas {@value KitFront#PACE_MILLIS} ms apart. */
	PACED("chat-text"),
	/** REASONING streamed with a {@value KitFront#GAP_MILLIS} ms pause between reasoning and content. */
	GAP("kit/reasoning-length"),
	STREAM_ERROR("stream-error", "chat-text"),
	TRUNCATED("kit/tool-call-mixed"),
	MALFORMED("kit/tool-call-mixed");

	/** Every scenario that answers 200 at once (not the paced ones): what the SDK and framing rules read. */
	static final List<Scenario> ANSWERS = List.of(TEXT, ALLOW, MIXED, DENY_ONLY, INTERLEAVED, EXOTIC, CONTINUOUS_USAGE, EXTRAS,
			REASONING, QUARANTINE, STREAM_ERROR, TRUNCATED, MALFORMED);

	/** The scenarios whose upstream answer is a normal one: what a faithful gateway relays as an answer, not an error. */
	static final List<Scenario> NORMAL = List.of(TEXT, ALLOW, MIXED, DENY_ONLY, INTERLEAVED, EXOTIC, CONTINUOUS_USAGE, EXTRAS, REASONING);

	/** The scenarios whose upstream answer proposes tool calls and ends normally. */
	static final List<Scenario> TOOL_CALLS = List.of(ALLOW, MIXED, DENY_ONLY, INTERLEAVED, EXOTIC, CONTINUOUS_USAGE, EXTRAS);

	private final String stream;

	private final String whole;

	Scenario(String fixture) {
		this(fixture, fixture);
	}

	Scenario(String stream, String whole) {
		this.stream = stream;
		this.whole = whole;
	}

	String marker() {
		return "kit:" + name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/** The fixture path under fixtures/wire for {@code engine} and the mode, with its extension. */
	String fixture(Dialect engine, boolean streamed) {
		String fixture = streamed ? stream : whole;
		String path = fixture.startsWith("kit/") ? "kit/" + engine + fixture.substring(3) : engine + "/" + fixture;
		return path + (streamed ? ".sse" : ".json");
	}
}
