package dev.fakbattery.conformance.contract;

import static dev.fakbattery.api.HarnessConstants.BASE_URL;
import static dev.fakbattery.api.HarnessConstants.CONTEXT_LENGTH;
import static dev.fakbattery.api.HarnessConstants.MODEL;
import static dev.fakbattery.api.HarnessConstants.QUANT;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.ContractRung;
import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.contract.RunContract;
import dev.fakbattery.api.contract.RunContractValidator;
import dev.fakbattery.api.target.TargetIdentity;
import dev.fakbattery.engine.EngineDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 0: the run contract, written from configuration and from what the engine at {@code base.url} reports (its
 * context length; an engine this JVM does not reach, from {@code engine.cmd} or {@code engine.image}, is described by
 * configuration alone), and
 * validated as written, by the same validator that accepts the seed's committed contract. On the embedded default
 * its arms are the engine double and the reference gateway: SIMULATED.
 */
@ContractRung
@RungArtifact(ArtifactId.RUN_CONTRACT)
@DisplayName("rung 0 contract")
class ContractRungTests {

	/** The precision of the engine double, which has no weights. */
	static final String DOUBLE_PRECISION = "none (engine double, no weights)";

	@Test
	@DisplayName("writes the run contract and validates it as written")
	void writesRunContract(RungRun run) throws IOException {
		HarnessConfig config = run.config();
		RunContract.Endpoints endpoints = RunContract.Endpoints.from(config);
		if (endpoints.embedded() && !config.profile().embeddedTargetAllowed()) {
			run.requireUrl(BASE_URL, "raw engine base URL");
			return;
		}
		try (EngineDouble engineDouble = endpoints.embedded()
				? EngineDouble.builder().dialect(config.engine()).model(config.string(MODEL, RunContract.EMBEDDED_MODEL)).start() : null) {
			Optional<TargetIdentity> target = engineDouble != null
					? Optional.of(run.target(URI.create(engineDouble.baseUrl()), TargetIdentity.EMBEDDED))
					: config.v1Url(BASE_URL).map(url -> run.target(url, BASE_URL));
			Optional<Integer> reported = target.map(TargetIdentity::contextLength);
			Optional<String> model = endpoints.embedded() ? Optional.of(engineDouble.model())
					: run.requireConfig(MODEL, "served model name", "NAME");
			Optional<Integer> context = config.positiveInt(CONTEXT_LENGTH).or(() -> reported);
			Optional<String> quant = config.string(QUANT).or(() -> Optional.ofNullable(engineDouble == null ? null : DOUBLE_PRECISION));
			if (context.isEmpty()) {
				run.pending(CONTEXT_LENGTH, "the engine's context length is neither configured nor reported by "
						+ target.map(t -> t.baseUrl() + "/models").orElse(endpoints.raw()), "set -D" + CONTEXT_LENGTH + "=N (the engine's --max-model-len)");
			}
			if (quant.isEmpty()) {
				run.pending(QUANT, "the engine's precision is not configured", "set -D" + QUANT + "=fp8 (or the engine's precision)");
			}
			if (config.positiveInt(CONTEXT_LENGTH).isEmpty() && reported.isPresent()) {
				run.measured("context_length", reported.get(), "tokens", "GET " + target.get().baseUrl() + "/models (max_model_len)");
			}
			if (model.isEmpty() || context.isEmpty() || quant.isEmpty()) {
				return;
			}
			run.body().setAll(RunContract.build(config, model.get(), endpoints, context.get(), quant.get()));
			run.validateArtifact(RunContractValidator::validate);
			run.headline(model.get() + " on " + endpoints.raw() + " vs " + endpoints.gateway() + ", context " + context.get()
					+ ", result_claim_allowed=false");
		}
	}
}
