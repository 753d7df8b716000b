package dev.fakbattery.core.target;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apiguardian.api.API;

/**
 * Who a rung measured: what the engine at the base URL said it is when {@link TargetProbe} asked. Every
 * artifact carries it; the final gate counts only artifacts measured against one identity.
 *
 * <p>The engine is identified only positively, by what its answers say ({@link TargetProbe}): a version from its own
 * endpoint (vLLM {@code /version}, SGLang {@code /get_server_info}, llama.cpp {@code /props}), metric families of its own
 * on {@code /metrics} ({@code vllm:}, {@code sglang:}, {@code llamacpp:}), the {@code system_fingerprint} of a {@code /v1}
 * answer, the shape of its {@code id} where that carries the engine double's id mark; {@code owned_by} on {@code /v1/models} is recorded but is evidence of nothing, as any proxy can relay it.
 * Evidence naming two engines identifies none ({@link #conflict}). An engine that identifies itself no way is
 * {@linkplain #unidentified() unidentified} unless {@code engine.identity} declares it ({@link #identityOverride}): a
 * declaration, shown as one ({@link #declared()}), never an observation. Against a positive identification a
 * declaration is a misconfiguration ({@link #declarationContradicted()}): evidence beats declarations.
 *
 * @param origin how the engine was reached: {@code base.url}, {@code engine.cmd}, {@code engine.image} or
 *        {@code embedded} (the engine double started in the test's JVM)
 * @param baseUrl the engine's base URL, ending in {@code /v1}
 * @param probedKind {@code vllm}, {@code sglang} or {@code llama.cpp} as the probe identified it; null when nothing
 *        identified it
 * @param engineVersion the version it reported; null when it reported none
 * @param servedModels the model ids of {@code GET /models}; empty when it did not answer
 * @param contextLength the context length it reported ({@code max_model_len}, llama.cpp {@code n_ctx}); null when none
 * @param server its {@code Server} response header; null when none
 * @param doubleEvidence why this engine is the engine double (the first of its marks found: version suffix, {@code Server}
 *        header, {@code /metrics} comment, {@code system_fingerprint}, the id mark of a {@code /v1} answer's {@code id});
 *        null when nothing says so
 * @param problem what went wrong asking it (no answer, not OpenAI-compatible); null when it answered
 * @param ownedBy the {@code owned_by} of its first model card (a claim, not evidence); null when none
 * @param toolParser the tool-call parser it reported (SGLang {@code tool_call_parser}); null where not exposed
 * @param identifiedBy what positively identified it, one line each ({@code GET /version: version 0.11.0}); empty when
 *        nothing did
 * @param probed every request of the probe and what it answered, one line each
 * @param identityOverride the engine kind {@code engine.identity} declared (recorded, visible); null when not set or
 *        when it names the kind the probe identified
 * @param gatewayEvidence why what answers at the base URL is a gateway, not an engine (metric families of a gateway on
 *        {@code /metrics}); null when nothing says so
 * @param conflict the evidence that named two engines, each piece with the engine it named; null when none did (since 0.8)
 * @since 0.2
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public record TargetIdentity(String origin, URI baseUrl, String probedKind, String engineVersion, List<String> servedModels,
		Integer contextLength, String server, String doubleEvidence, String problem, String ownedBy, String toolParser,
		List<String> identifiedBy, List<String> probed, String identityOverride, String gatewayEvidence, String conflict) {

	/** {@value}: the engine double started in the test's JVM. */
	public static final String EMBEDDED = "embedded";

	/** {@value}: the engine kind of a target nothing identified. */
	public static final String UNKNOWN = "unknown";

	/**
	 * {@value}: the engine kind of the engine double, whatever dialect it speaks ({@link #dialect()}): it is no engine, so
	 * no artifact calls it one.
	 *
	 * @since 0.9
	 */
	public static final String ENGINE_DOUBLE = "engine-double";

	/** {@value}: the engine kind was read from the engine's answers. */
	public static final String OBSERVED = "observed";

	/** {@value}: the engine kind was named by {@code engine.identity}, not read from the engine's answers. */
	public static final String DECLARED = "declared";

	public TargetIdentity {
		Objects.requireNonNull(origin, "origin");
		Objects.requireNonNull(baseUrl, "baseUrl");
		servedModels = List.copyOf(servedModels);
		identifiedBy = List.copyOf(identifiedBy);
		probed = List.copyOf(probed);
	}

	/**
	 * This identity with {@code engine.identity} set to {@code kind} (stripped, lower-cased); unchanged when {@code kind} is
	 * null or blank, or names the kind the probe identified (the observation stands). A kind that differs from the one the
	 * probe identified is recorded all the same, so that {@link #declarationContradicted()} names both. The probe's own
	 * findings stay recorded beside it.
	 *
	 * @since 0.5
	 */
	public TargetIdentity withOverride(String kind) {
		if (kind == null || kind.isBlank() || kind.strip().toLowerCase(Locale.ROOT).equals(probedKind)) {
			return this;
		}
		return new TargetIdentity(origin, baseUrl, probedKind, engineVersion, servedModels, contextLength, server, doubleEvidence,
				problem, ownedBy, toolParser, identifiedBy, probed, kind.strip().toLowerCase(Locale.ROOT), gatewayEvidence, conflict);
	}

	/**
	 * {@code vllm}, {@code sglang}, {@code llama.cpp}: what the probe identified, else what {@code engine.identity}
	 * declared, else {@value #UNKNOWN}; {@value #ENGINE_DOUBLE} for the engine double, whose answers imitate an engine
	 * ({@link #dialect()}). A declaration never outranks an observation.
	 */
	public String engineKind() {
		return engineDouble() ? ENGINE_DOUBLE : probedKind != null ? probedKind : identityOverride != null ? identityOverride : UNKNOWN;
	}

	/**
	 * The wire the engine's answers speak, as the probe identified it ({@code vllm}, {@code sglang}, {@code llama.cpp}):
	 * the engine kind for a real engine, the engine imitated for the engine double; {@value #UNKNOWN} when nothing
	 * identified it.
	 *
	 * @since 0.9
	 */
	public String dialect() {
		return probedKind != null ? probedKind : UNKNOWN;
	}

	/**
	 * Where {@link #engineKind()} comes from: {@value #OBSERVED} (the engine's answers), {@value #DECLARED}
	 * ({@code engine.identity}, nothing observed) or {@value #UNKNOWN} (neither).
	 *
	 * @since 0.8
	 */
	public String identity() {
		return probedKind != null ? OBSERVED : identityOverride != null ? DECLARED : UNKNOWN;
	}

	/**
	 * Whether the engine kind is only declared by {@code engine.identity}, not observed: nothing can be judged of it.
	 *
	 * @since 0.8
	 */
	public boolean declared() {
		return DECLARED.equals(identity());
	}

	/**
	 * Why {@code engine.identity} is a misconfiguration here: it names an engine other than the one the engine's answers
	 * identified. {@code engine.identity} names only an engine the probe left unidentified. Empty otherwise.
	 *
	 * @since 0.8
	 */
	public Optional<String> declarationContradicted() {
		if (probedKind == null || identityOverride == null) {
			return Optional.empty();
		}
		return Optional.of("engine.identity declares " + identityOverride + " but the engine at " + baseUrl + " identified itself as "
				+ probedKind + (engineVersion == null ? "" : " " + engineVersion) + " (" + String.join("; ", identifiedBy) + ")");
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
	 * Why the server at {@link #baseUrl} is a gateway rather than the engine a rung asked for: a gateway's own metric
	 * families on its {@code /metrics}. Measured through it, a rung would judge a server the harness neither started nor
	 * was told to judge, stacked under the gateway under test. Empty when nothing says so.
	 *
	 * @since 0.7
	 */
	public Optional<String> gatewayInstead() {
		return Optional.ofNullable(gatewayEvidence)
				.map(why -> "the server at " + baseUrl + " (" + origin + ") is a gateway, not an engine: " + why);
	}

	/**
	 * Why no known engine is behind {@link #baseUrl}: neither identified by the probe nor the engine double nor named
	 * by {@code engine.identity}; the reason lists what was probed. Empty when identified.
	 *
	 * @since 0.5
	 */
	public Optional<String> unidentified() {
		if (probedKind != null || engineDouble() || identityOverride != null) {
			return Optional.empty();
		}
		if (conflict != null) {
			return Optional.of("unidentified engine at " + baseUrl + ": its answers name different engines (" + conflict + "); probed "
					+ String.join("; ", probed));
		}
		return Optional.of("unidentified engine at " + baseUrl + ": no version from /version, /get_server_info or /props, no "
				+ "vllm:, sglang: or llamacpp: metric families on /metrics and no system_fingerprint of an engine on /v1" + (ownedBy == null
						? ""
						: " (owned_by " + ownedBy
								+ " on /v1/models is a claim any proxy relays, not evidence)")
				+ "; probed " + String.join("; ", probed));
	}

	/**
	 * What must match between artifacts of one battery: origin, kind, version, served models, and the base URL
	 * (not for the embedded double, which each rung starts on its own free port).
	 */
	public String fingerprint() {
		return origin + "|" + engineKind() + "|" + engineVersion + "|" + servedModels
				+ (EMBEDDED.equals(origin) ? "" : "|" + baseUrl);
	}

	/** One line: {@code vllm 0.11.0 at http://h:8000/v1 (base.url), serving [m]}. */
	public String describe() {
		return (engineDouble() ? "engine double (" + dialect() + " dialect)" : engineKind())
				+ (declared() ? " (declared by -Dengine.identity, not observed)" : "")
				+ (engineVersion == null ? "" : " " + engineVersion) + " at " + baseUrl + " (" + origin + "), serving " + servedModels;
	}

	/** The artifact's {@code target.engine} block. */
	public void writeTo(ObjectNode node) {
		node.put("origin", origin);
		node.put("base_url", baseUrl.toString());
		node.put("engine_kind", engineKind());
		node.put("dialect", dialect());
		node.put("identity", identity());
		node.put("engine_version", engineVersion);
		servedModels.forEach(node.putArray("served_models")::add);
		if (contextLength == null) {
			node.putNull("context_length");
		}
		else {
			node.put("context_length", contextLength);
		}
		node.put("server_header", server);
		node.put("owned_by", ownedBy);
		node.put("tool_parser", toolParser);
		identifiedBy.forEach(node.putArray("identified_by")::add);
		node.put("identity_override", identityOverride);
		probed.forEach(node.putArray("probed")::add);
		node.put("engine_double", engineDouble());
		node.put("engine_double_evidence", doubleEvidence);
		node.put("gateway_evidence", gatewayEvidence);
		node.put("evidence_conflict", conflict);
		node.put("probe_problem", problem);
		node.put("fingerprint", fingerprint());
	}
}
