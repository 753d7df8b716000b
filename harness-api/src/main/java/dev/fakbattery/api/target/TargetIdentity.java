package dev.fakbattery.api.target;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Who a rung measured: what the engine at the base URL said it is when {@link TargetProbe} asked. Every
 * artifact carries it; the final gate counts only artifacts measured against one identity.
 *
 * @param origin how the engine was reached: {@code base.url}, {@code engine.cmd}, {@code engine.image} or
 *        {@code embedded} (the engine double started in the test's JVM)
 * @param baseUrl the engine's base URL, ending in {@code /v1}
 * @param engineKind {@code vllm}, {@code sglang}, {@code llama.cpp}, or {@code unknown} when the engine did not say
 * @param engineVersion the version it reported; null when it reported none
 * @param servedModels the model ids of {@code GET /models}; empty when it did not answer
 * @param contextLength the context length it reported ({@code max_model_len}, llama.cpp {@code n_ctx}); null when none
 * @param server its {@code Server} response header; null when none
 * @param doubleEvidence why this engine is the engine double; null when nothing says so
 * @param problem what went wrong asking it (no answer, not OpenAI-compatible); null when it answered
 * @since 0.2
 */
public record TargetIdentity(String origin, URI baseUrl, String engineKind, String engineVersion, List<String> servedModels,
		Integer contextLength, String server, String doubleEvidence, String problem) {

	/** {@value}: the engine double started in the test's JVM. */
	public static final String EMBEDDED = "embedded";

	public TargetIdentity {
		Objects.requireNonNull(origin, "origin");
		Objects.requireNonNull(baseUrl, "baseUrl");
		Objects.requireNonNull(engineKind, "engineKind");
		servedModels = List.copyOf(servedModels);
	}

	/** Whether the measured engine is the engine double: its numbers are SIMULATED whatever the profile. */
	public boolean engineDouble() {
		return doubleEvidence != null;
	}

	/** Why this target is the engine double. */
	public Optional<String> simulatedBecause() {
		return Optional.ofNullable(doubleEvidence).map(why -> "the engine at " + baseUrl + " is the engine double: " + why);
	}

	/**
	 * What must match between artifacts of one battery: origin, kind, version, served models, and the base URL
	 * (not for the embedded double, which each rung starts on its own free port).
	 */
	public String fingerprint() {
		return origin + "|" + engineKind + "|" + engineVersion + "|" + servedModels
				+ (EMBEDDED.equals(origin) ? "" : "|" + baseUrl);
	}

	/** One line: {@code vllm 0.11.0 at http://h:8000/v1 (base.url), serving [m]}. */
	public String describe() {
		return (engineDouble() ? "engine double (" + engineKind + " dialect)" : engineKind)
				+ (engineVersion == null ? "" : " " + engineVersion) + " at " + baseUrl + " (" + origin + "), serving " + servedModels;
	}

	/** The artifact's {@code target.engine} block. */
	public void writeTo(ObjectNode node) {
		node.put("origin", origin);
		node.put("base_url", baseUrl.toString());
		node.put("engine_kind", engineKind);
		node.put("engine_version", engineVersion);
		servedModels.forEach(node.putArray("served_models")::add);
		if (contextLength == null) {
			node.putNull("context_length");
		}
		else {
			node.put("context_length", contextLength);
		}
		node.put("server_header", server);
		node.put("engine_double", engineDouble());
		node.put("engine_double_evidence", doubleEvidence);
		node.put("probe_problem", problem);
		node.put("fingerprint", fingerprint());
	}
}
