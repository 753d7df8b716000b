package dev.fakbattery.conformance.contract;

import static dev.fakbattery.api.HarnessConstants.BASE_URL;
import static dev.fakbattery.api.HarnessConstants.MODEL;

import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.api.ArtifactId;
import dev.fakbattery.api.Check;
import dev.fakbattery.api.ContractRung;
import dev.fakbattery.api.HarnessConfig;
import dev.fakbattery.api.RungArtifact;
import dev.fakbattery.api.RungRun;
import dev.fakbattery.api.contract.RunContract;
import dev.fakbattery.api.contract.RunContractValidator;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Rung 0: the run contract, written from configuration and validated by the same validator that
 * accepts the seed's committed contract.
 */
@ContractRung
@RungArtifact(ArtifactId.RUN_CONTRACT)
@DisplayName("rung 0 contract")
class ContractRungTests {

	@Test
	@DisplayName("writes the run contract and validates it")
	void writesRunContract(RungRun run) {
		HarnessConfig config = run.config();
		RunContract.Endpoints endpoints = RunContract.Endpoints.from(config);
		if (endpoints.embedded() && "gpu".equals(config.profile())) {
			run.requireUrl(BASE_URL, "raw engine base URL");
			return;
		}
		Optional<String> model = endpoints.embedded()
				? Optional.of(config.string(MODEL, RunContract.EMBEDDED_MODEL))
				: run.requireConfig(MODEL, "served model name", "NAME");
		if (model.isEmpty()) {
			return;
		}
		ObjectNode contract = RunContract.build(config, model.get(), endpoints);
		run.body().setAll(contract);
		if (endpoints.embedded()) {
			run.simulated("arms are the embedded engine double and reference gateway, not a serving node");
		}
		ObjectNode validated = contract.deepCopy().put("schema", RunContractValidator.SCHEMA);
		for (Check check : RunContractValidator.validate(validated)) {
			run.check(check.name(), check.passed(), check.expected(), check.observed());
		}
		run.headline(model.get() + " on " + endpoints.raw() + " vs " + endpoints.gateway() + ", result_claim_allowed=false");
	}
}
