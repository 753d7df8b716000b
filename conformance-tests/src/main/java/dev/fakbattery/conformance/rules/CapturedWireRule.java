package dev.fakbattery.conformance.rules;

import org.apiguardian.api.API;

/**
 * The wire rules that {@code CapturedWireVerification} runs on captured engine answers ({@code wire.captures}): each
 * is one of the {@link WireRule}s, judged on the capture's variants against the capture itself. RULES.md's table of
 * captured wires is generated from this index.
 *
 * @since 0.6
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public enum CapturedWireRule implements KitRule {

	W02(WireRule.W02, "allow kept unchanged", "allow", "both", "the captured calls delivered byte-identical, none more"),

	W13(WireRule.W13, "no byte of a denied call", "deny", "both",
			"no call and none of the captured ids, names or arguments (those of 12 characters or more) anywhere, as sent or JSON-escaped"),

	W04(WireRule.W04, "transform redacted", "transform", "both",
			"each call `{\"redacted\":true}`, the original arguments nowhere, as sent or JSON-escaped"),

	W05(WireRule.W05, "content kept", "every variant", "both", "the content as captured"),

	W07(WireRule.W07, "finish_reason consistent with surviving calls", "every variant", "both",
			"`finish_reason` as captured (deny: `tool_calls` becomes `stop`)"),

	W08(WireRule.W08, "usage kept", "every variant", "both", "the usage as captured"),

	W09(WireRule.W09, "the engine's error status and body pass through", "error answers", "both",
			"the engine's status and body, unchanged"),

	W19(WireRule.W19, "the official OpenAI SDK reads every answer as the kit does", "every variant, errors too", "both",
			"the SDK reads the gateway's answer as the kit does, and raises the error with its status (not judged where it cannot read the capture itself)"),

	W20(WireRule.W20, "every data event is a chunk or an error frame, [DONE] once and last", "every variant", "stream",
			"the stream's framing"),

	W21(WireRule.W21, "allowed answers pass unchanged", "allow, as sent", "both", "the capture unchanged"),

	W22(WireRule.W22, "per-chunk usage kept", "every variant", "stream", "per-chunk usage, when the capture has it on every chunk");

	/** What every captured rule is skipped for, besides its own condition: {@value}. */
	public static final String SKIPPED_ALWAYS = "no capture of the mode; a stream without `[DONE]`; no variant the rule judges; an engine the gateway does not serve";

	private final WireRule rule;

	private final String judgedOn;

	CapturedWireRule(WireRule rule, String title, String judgedOn, String modes, String must) {
		this.rule = rule;
		this.judgedOn = judgedOn;
		this.text = new Text(rule.kind(), title, must, modes, skippedWhen(name()), rule.ifItFails());
	}

	private final Text text;

	@Override
	public Text text() {
		return text;
	}

	/** The kit's rule this one judges on captures. */
	public WireRule rule() {
		return rule;
	}

	/** The class of the wire rule it judges on captures. */
	@Override
	public ConformanceClass conformanceClass() {
		return rule.conformanceClass();
	}

	/** The variants of a capture it judges: allow, deny, transform, as sent, error answers. */
	public String judgedOn() {
		return judgedOn;
	}

	@Override
	public String displayName() {
		return id() + " " + title() + " (captured)";
	}

	/** When it is skipped besides {@link #SKIPPED_ALWAYS}, which holds for every captured rule. */
	private static String skippedWhen(String id) {
		return switch (id) {
			case "W09" -> "a normal answer (HTTP 200)";
			case "W19" -> "only as every captured rule";
			case "W20" -> "non-stream";
			case "W22" -> "non-stream; a capture without usage on every chunk";
			default -> "an error answer (W09 judges it)";
		};
	}
}
