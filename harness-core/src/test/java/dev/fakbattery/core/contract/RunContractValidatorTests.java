package dev.fakbattery.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.Check;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RunContractValidator")
class RunContractValidatorTests {

	static ObjectNode seedContract() throws IOException {
		try (InputStream in = RunContractValidatorTests.class.getResourceAsStream("/seed/raw-vllm-vs-fak-gateway-contract.json")) {
			return (ObjectNode) Json.MAPPER.readTree(in);
		}
	}

	@Test
	@DisplayName("fak's committed contract passes every check")
	void seedContractValidates() throws IOException {
		List<Check> checks = RunContractValidator.validate(seedContract());
		assertThat(checks).hasSize(9).allSatisfy(check -> assertThat(check.passed()).as(check.describe()).isTrue());
	}

	@Test
	@DisplayName("our contract built from configuration passes every check")
	void ourContractValidates() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of("base.url", "http://127.0.0.1:8000/v1",
				"gateway.url", "http://127.0.0.1:8080/v1", "gpu.name.required", "H200").get(name)));
		ObjectNode contract = RunContract.build(config, "glm-5.2", RunContract.Endpoints.from(config), 131072, "fp8");
		contract.put("schema", RunContractValidator.SCHEMA);
		assertThat(RunContractValidator.validate(contract)).allSatisfy(c -> assertThat(c.passed()).as(c.describe()).isTrue());
		assertThat(contract.path("shared_config").path("raw_vllm_base_url").asText()).isEqualTo("http://127.0.0.1:8000/v1");
		assertThat(contract.path("arms").get(1).path("upstream").asText()).isEqualTo("http://127.0.0.1:8000/v1");
		assertThat(contract.path("result_claim_allowed").asBoolean()).isFalse();
	}

	@Test
	@DisplayName("an engine started from engine.cmd is a real endpoint, named as such, not the embedded double")
	void engineCommandEndpoints() {
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of("engine.cmd", "llama-server --port {port}",
				"gateway.cmd", "java -jar reference-gateway.jar --port {port}").get(name)));
		RunContract.Endpoints endpoints = RunContract.Endpoints.from(config);
		assertThat(endpoints).isEqualTo(new RunContract.Endpoints("started from engine.cmd", "started from gateway.cmd", false));
	}

	@Test
	void wrongSchemaFails() throws IOException {
		assertOnlyFails("schema", c -> c.put("schema", "fak.other.v1"),
				"check schema: expected fak.glm52-vllm-raw-fak-run-contract.v1, observed fak.other.v1");
	}

	@Test
	void claimAllowedFails() throws IOException {
		assertOnlyFails("result_claim_disabled", c -> c.put("result_claim_allowed", true),
				"check result_claim_disabled: expected result_claim_allowed false (only the final gate allows a claim), observed true");
	}

	@Test
	void missingSharedConfigFails() throws IOException {
		assertOnlyFails("shared_config_complete", c -> ((ObjectNode) c.path("shared_config")).remove("quant"),
				"check shared_config_complete: expected shared_config [checkpoint_model, served_model_name, engine, selection, verified_count, raw_vllm_base_url, gateway_base_url, context_length, quant, tax_count, budget], observed missing [quant]");
	}

	@Test
	void gatewayUpstreamMismatchFails() throws IOException {
		assertOnlyFails("arms", c -> ((ObjectNode) c.path("arms").get(1)).put("upstream", "http://10.0.0.9:8000/v1"),
				"check arms: expected arms [raw-vllm, fak-gateway] on the served model, gateway upstream = raw endpoint, observed fak-gateway.upstream [http://10.0.0.9:8000/v1] is not the raw arm endpoint [http://127.0.0.1:8000/v1]");
	}

	@Test
	void oneArmFails() throws IOException {
		assertOnlyFails("arms", c -> ((ArrayNode) c.path("arms")).remove(1),
				"check arms: expected arms [raw-vllm, fak-gateway] on the served model, gateway upstream = raw endpoint, observed arm ids [raw-vllm]");
	}

	@Test
	void missingMetricFails() throws IOException {
		assertOnlyFails("metrics_required", c -> ((ArrayNode) c.path("metrics_required")).remove(11),
				"check metrics_required: expected fak's 16 metrics, observed missing [latency.gateway_tax]");
	}

	@Test
	void perArmRequirementForOneArmFails() throws IOException {
		assertOnlyFails("measurement_requirements",
				c -> ((ArrayNode) c.path("measurement_requirements").path("per_arm").get(0).path("required_for")).remove(1),
				"check measurement_requirements: expected per_arm requirements with a source, required for both arms, observed incomplete [pass_rate]");
	}

	@Test
	void requiredArtifactsWithoutFinalCheckFails() throws IOException {
		assertOnlyFails("required_artifacts", c -> ((ObjectNode) c.path("required_artifacts")).remove("final_check"),
				"check required_artifacts: expected required_artifacts naming the final check and the rung artifacts, observed 6 entries");
	}

	@Test
	void emptyClaimFrameFails() throws IOException {
		assertOnlyFails("claim_frame", c -> ((ObjectNode) c.path("claim_frame")).putArray("must_not_claim"),
				"check claim_frame: expected claim_frame.allowed and a non-empty must_not_claim, observed {\"allowed\":\"same-model harness gain\",\"must_not_claim\":[]}");
	}

	@Test
	void honestyClaimingResultsFails() throws IOException {
		assertOnlyFails("honesty", c -> c.put("honesty", "These are the results."),
				"check honesty: expected honesty saying the contract is not a benchmark result, observed These are the results.");
	}

	private static void assertOnlyFails(String name, Consumer<ObjectNode> breakIt, String message) throws IOException {
		ObjectNode contract = seedContract();
		breakIt.accept(contract);
		List<Check> failed = RunContractValidator.validate(contract).stream().filter(c -> !c.passed()).toList();
		assertThat(failed).extracting(Check::name).containsExactly(name);
		assertThat(failed.get(0).describe()).isEqualTo(message);
	}
}
