package dev.fakbattery.bench.contract;

import static dev.fakbattery.core.HarnessConstants.CONTEXT_LENGTH;
import static dev.fakbattery.core.HarnessConstants.ENGINE;
import static dev.fakbattery.core.HarnessConstants.ENGINE_IDENTITY;
import static dev.fakbattery.core.HarnessConstants.ENGINE_TOOL_PARSER;
import static dev.fakbattery.core.HarnessConstants.MODEL;
import static dev.fakbattery.core.HarnessConstants.QUANT;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

import dev.fakbattery.api.ContractRung;
import dev.fakbattery.bench.container.NodeTarget;
import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.RungArtifact;
import dev.fakbattery.core.RungRecorder;
import dev.fakbattery.core.contract.RunContract;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.engine.EngineDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 0: the run contract, checked against the engine. The rung finds the raw engine as every rung does
 * ({@link NodeTarget}: {@code base.url}, else the engine {@code engine.cmd} or {@code engine.image} starts, else on the
 * embedded default the engine double), asks it who it is, and each check compares what the engine reported with
 * the configuration: that it answered at all, its engine kind, the served model, its context length and, where the
 * engine exposes it, its tool-call parser. An engine that does not answer FAILs; one that does not identify itself is
 * PENDING_MEASUREMENT (name it with {@code -Dengine.identity}; its engine check is then NOT_JUDGED, a declaration
 * compared with nothing observed); a configured {@code context.length} the engine
 * contradicts FAILs naming both. The contract is then written from what was checked. On the embedded default its
 * arms are the engine double and the reference gateway: SIMULATED.
 */
@ContractRung
@RungArtifact(ArtifactId.RUN_CONTRACT)
@DisplayName("rung 0 contract")
class ContractRungTests {

	/** The precision of the engine double, which has no weights. */
	static final String DOUBLE_PRECISION = "none (engine double, no weights)";

	@Test
	@DisplayName("checks the configuration against what the engine reports, then writes the run contract")
	void writesRunContract(RungRecorder run) throws IOException {
		HarnessConfig config = run.config();
		boolean embedded = !NodeTarget.configured(config) && config.profile().embeddedTargetAllowed();
		try (EngineDouble engineDouble = embedded
				? EngineDouble.builder().dialect(config.engine()).model(config.string(MODEL, RunContract.EMBEDDED_MODEL)).start()
				: null) {
			Optional<URI> url = embedded ? Optional.of(URI.create(engineDouble.baseUrl())) : NodeTarget.configured(run);
			if (url.isEmpty()) {
				return;
			}
			TargetIdentity target = embedded ? run.target(url.get(), TargetIdentity.EMBEDDED) : run.target().orElseThrow();
			if (!run.check("engine_answered", target.problem() == null, "GET " + target.baseUrl() + "/models answering the served models",
					target.problem() == null ? "served " + target.servedModels() : target.problem())) {
				return;
			}
			engineKind(run, target);
			Optional<String> model = embedded ? Optional.of(engineDouble.model()) : run.requireConfig(MODEL, "served model name", "NAME");
			model.ifPresent(name -> run.check("served_model", target.servedModels().contains(name),
					"model " + name + " (-D" + MODEL + ") among the engine's served models", "engine serves " + target.servedModels()));
			Optional<Integer> context = contextLength(run, target);
			toolParser(run, target);
			Optional<String> quant = config.string(QUANT).or(() -> Optional.ofNullable(engineDouble == null ? null : DOUBLE_PRECISION));
			if (quant.isEmpty()) {
				run.pending(QUANT, "the engine's precision is not configured", "set -D" + QUANT + "=fp8 (or the engine's precision)");
			}
			if (model.isEmpty() || context.isEmpty() || quant.isEmpty()) {
				return;
			}
			RunContract.Endpoints endpoints = RunContract.Endpoints.from(config);
			run.body().setAll(RunContract.build(config, model.get(), endpoints, context.get(), quant.get()));
			run.body().with("shared_config").put("engine_version", target.engineVersion());
			run.headline(model.get() + " on " + endpoints.raw() + " vs " + endpoints.gateway() + ", context " + context.get()
					+ ", result_claim_allowed=false");
		}
	}

	/**
	 * The engine kind its answers identified against {@code -Dengine}: a comparison that FAILs on another engine; NOT_JUDGED
	 * (the rung PENDING_MEASUREMENT) when the kind is only declared by {@code engine.identity}, as nothing observed can be
	 * compared; pending when unidentified. The engine double is no engine: its dialect is compared instead, and the check
	 * says so.
	 */
	private static void engineKind(RungRecorder run, TargetIdentity target) {
		Optional<String> unidentified = target.unidentified();
		if (unidentified.isPresent()) {
			run.pending(ENGINE_IDENTITY, unidentified.get(), "check what serves " + target.baseUrl() + " and set -D" + ENGINE_IDENTITY
					+ "=NAME (vllm, sglang, llama.cpp), recorded as declared, not observed");
			return;
		}
		String configured = run.config().engine().id();
		String expected = "engine " + configured + " (-D" + ENGINE + ") as the engine's answers identify it";
		if (target.declared()) {
			run.notJudged("engine", expected, target.engineKind() + ", declared by -D" + ENGINE_IDENTITY + ", not observed",
					"the engine at " + target.baseUrl() + " identified itself no way; -D" + ENGINE_IDENTITY + "="
							+ target.identityOverride() + " is a declaration, not an observation",
					"serve an engine whose answers identify it (vLLM's /version or vllm: metrics, SGLang's /get_server_info, "
							+ "llama.cpp's /props, or a system_fingerprint on /v1)");
			return;
		}
		if (target.engineDouble()) {
			run.check("engine", configured.equals(target.dialect().replace(".", "")),
					"the " + configured + " dialect (-D" + ENGINE + ") in the engine double's answers",
					"engine double speaking " + target.dialect() + " (" + String.join("; ", target.identifiedBy()) + ")");
			return;
		}
		String observed = target.engineKind();
		run.check("engine", configured.equals(observed.replace(".", "")), expected,
				observed + (target.engineVersion() == null ? "" : " " + target.engineVersion()) + " ("
						+ String.join("; ", target.identifiedBy()) + ")");
	}

	/**
	 * The context length: the engine's, checked against {@code context.length} when that is configured; the configured
	 * one alone is pending (nothing to check it with); neither is pending.
	 */
	private static Optional<Integer> contextLength(RungRecorder run, TargetIdentity target) {
		Optional<Integer> configured = run.config().positiveInt(CONTEXT_LENGTH);
		Optional<Integer> reported = Optional.ofNullable(target.contextLength());
		String source = "GET " + target.baseUrl() + "/models (max_model_len), /get_server_info (context_length) or /props (n_ctx)";
		if (reported.isEmpty()) {
			run.pending(CONTEXT_LENGTH,
					configured.map(n -> "context.length " + n + " is configured but the engine reports none to check it with"
							+ " at " + source).orElse("the engine's context length is neither configured nor reported by " + source),
					"serve it from an engine that reports its context length, or check it by hand and set -D" + CONTEXT_LENGTH
							+ "=N (the engine's --max-model-len)");
			return Optional.empty();
		}
		run.measured("context_length", reported.get(), "tokens", source);
		if (configured.isPresent() && !run.check("context_length", configured.get().equals(reported.get()),
				"context.length " + configured.get() + " (-D" + CONTEXT_LENGTH + ")", "engine reports " + reported.get())) {
			return Optional.empty();
		}
		return reported;
	}

	/** The tool-call parser, where the engine exposes it (SGLang) and {@code engine.tool.parser} is configured. */
	private static void toolParser(RungRecorder run, TargetIdentity target) {
		Optional<String> configured = run.config().string(ENGINE_TOOL_PARSER);
		if (target.toolParser() != null && configured.isPresent()) {
			run.check("tool_parser", configured.get().equals(target.toolParser()), "tool parser " + configured.get() + " (-D"
					+ ENGINE_TOOL_PARSER + ")", "engine reports " + target.toolParser());
		}
	}
}
