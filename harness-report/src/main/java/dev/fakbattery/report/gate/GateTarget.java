package dev.fakbattery.report.gate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The engine an artifact measured, as its {@code target.engine} block records it.
 *
 * @param fingerprint what must match across the artifacts of one battery
 * @param engineKind {@code vllm}, {@code sglang}, {@code llama.cpp}, {@code engine-double} or {@code unknown}
 * @param description one line naming the engine, its version and URL
 * @param engineDouble whether it was the engine double
 * @param declared whether its engine kind was only declared by {@code engine.identity}, not observed in its answers
 *        ({@code target.engine.identity} {@code declared}) (since 0.8)
 * @since 0.2
 */
public record GateTarget(String fingerprint, String engineKind, String description, boolean engineDouble, boolean declared) {

	/** The target of an artifact; null when the rung measured no engine. */
	static GateTarget of(JsonNode artifact) {
		JsonNode engine = artifact.path("target").path("engine");
		if (!engine.isObject()) {
			return null;
		}
		String kind = engine.path("engine_kind").asText("unknown");
		boolean engineDouble = engine.path("engine_double").asBoolean(false);
		// an artifact from before target.engine.identity: its identity_override named the kind whatever the engine answered
		boolean declared = engine.has("identity")
				? "declared".equals(engine.path("identity").asText())
				: engine.path("identity_override").isTextual();
		String version = engine.path("engine_version").isTextual() ? " " + engine.path("engine_version").asText() : "";
		String description = (engineDouble ? "engine double (" + dialect(engine) + " dialect)" : kind) + version + " serving "
				+ engine.path("served_models") + " at " + engine.path("base_url").asText("?") + " (" + engine.path("origin").asText("?")
				+ ")"
				+ (declared ? ", declared by -Dengine.identity=" + kind + ", not observed in what it answered" : "");
		return new GateTarget(engine.path("fingerprint").asText(""), kind, description, engineDouble, declared);
	}

	/**
	 * The wire the engine double speaks: {@code target.engine.dialect}, or, in an artifact written before it, the
	 * {@code engine_kind} that then named it.
	 *
	 * @since 0.9
	 */
	public static String dialect(JsonNode engine) {
		return engine.path("dialect").asText(engine.path("engine_kind").asText("unknown"));
	}

	/** Whether the contract's authority draft may quote this engine: a real vLLM or SGLang. */
	boolean contractEngine() {
		return !engineDouble && (engineKind.equals("vllm") || engineKind.equals("sglang"));
	}
}
