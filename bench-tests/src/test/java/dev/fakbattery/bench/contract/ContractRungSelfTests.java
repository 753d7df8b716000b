package dev.fakbattery.bench.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.EngineDoubleMarker;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.WireFixtures;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The contract rung observes: against the engine double, stub engines that contradict the configuration, an engine
 * that does not answer and one that does not say who it is.
 */
@DisplayName("rung 0 contract, checked against what the engine reports")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a nested run waits on its own thread (NestedRun in conformance-tests says why)
class ContractRungSelfTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("embedded: SIMULATED, with the double's own context length and every check comparing the engine with the configuration")
	void embedded() throws Exception {
		run("battery", Map.of()).assertStatistics(stats -> stats.succeeded(1));
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(contract.path("shared_config").path("context_length").asInt()).isEqualTo(32768);
		assertThat(contract.path("shared_config").path("quant").asText()).isEqualTo(ContractRungTests.DOUBLE_PRECISION);
		assertThat(contract.path("shared_config").path("engine_version").asText()).isEqualTo("0.29.0+engine-double");
		assertThat(contract.path("acceptance").path("engine").path("expected").asText())
				.isEqualTo("the vllm dialect (-Dengine) in the engine double's answers");
		assertThat(contract.path("acceptance").path("engine").path("observed").asText()).isEqualTo(
				"engine double speaking vllm (GET /version: version 0.29.0+engine-double; GET /metrics: 12 metric families named vllm:*)");
		assertThat(contract.path("target").path("engine").path("engine_kind").asText()).isEqualTo("engine-double");
		assertThat(contract.path("target").path("engine").path("dialect").asText()).isEqualTo("vllm");
		assertThat(contract.path("acceptance").fieldNames()).toIterable().containsExactly("engine_answered", "engine", "served_model");
		assertThat(contract.path("measurements").get(0).path("name").asText()).isEqualTo("context_length");
	}

	@Test
	@DisplayName("-Pgpu: a real vLLM that reports what is configured PASSes")
	void realEnginePasses() throws Exception {
		try (StubServer engine = StubServer.vllm("m", 4096)) {
			run("gpu", real(engine.baseUrl(), 4096)).assertStatistics(stats -> stats.succeeded(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PASS");
		assertThat(contract.path("acceptance").path("context_length").path("observed").asText()).isEqualTo("engine reports 4096");
		assertThat(contract.path("target").path("engine").path("identified_by").toString()).isEqualTo("[\"GET /version: version 0.11.0\"]");
	}

	@Test
	@DisplayName("-Pllamacpp: llama-server's committed answers identify it by /props and match the profile's configuration")
	void llamaCppPasses() throws Exception {
		try (StubServer engine = StubServer.llamaCpp()) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 2048, "tiny-random-llama"));
			config.put(HarnessConstants.ENGINE, "llamacpp");
			config.put(HarnessConstants.QUANT, "f16");
			run("llamacpp", config).assertStatistics(stats -> stats.succeeded(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PASS");
		assertThat(contract.path("acceptance").path("engine").path("observed").asText())
				.isEqualTo("llama.cpp b1-de3ff81 (GET /props: build_info b1-de3ff81)");
		assertThat(contract.path("acceptance").path("context_length").path("status").asText()).isEqualTo("PASS");
	}

	@Test
	@DisplayName("a configured context.length the engine contradicts FAILs naming both, never silently wins")
	void contextMismatchFails() throws Exception {
		try (StubServer engine = StubServer.vllm("m", 4096)) {
			run("gpu", real(engine.baseUrl(), 131072)).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode check = artifact().path("acceptance").path("context_length");
		assertThat(artifact().path("verdict").asText()).isEqualTo("FAIL");
		assertThat(check.path("expected").asText()).isEqualTo("context.length 131072 (-Dcontext.length)");
		assertThat(check.path("observed").asText()).isEqualTo("engine reports 4096");
		assertThat(artifact().has("shared_config")).isFalse();
	}

	@Test
	@DisplayName("an engine serving another model FAILs naming both")
	void otherModelFails() throws Exception {
		try (StubServer engine = StubServer.vllm("other", 4096)) {
			run("gpu", real(engine.baseUrl(), 4096)).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode check = artifact().path("acceptance").path("served_model");
		assertThat(check.path("expected").asText()).isEqualTo("model m (-Dmodel) among the engine's served models");
		assertThat(check.path("observed").asText()).isEqualTo("engine serves [other]");
	}

	@Test
	@DisplayName("an engine of another kind than -Dengine FAILs naming both")
	void otherEngineFails() throws Exception {
		try (StubServer engine = StubServer.answering(Map.of("/v1/models", StubServer.models("m", 4096),
				"/get_server_info", "{\"version\":\"0.5.4\",\"context_length\":4096,\"tool_call_parser\":\"qwen25\"}"))) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 4096));
			config.put(HarnessConstants.ENGINE_TOOL_PARSER, "hermes");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode acceptance = artifact().path("acceptance");
		assertThat(acceptance.path("engine").path("expected").asText())
				.isEqualTo("engine vllm (-Dengine) as the engine's answers identify it");
		assertThat(acceptance.path("engine").path("status").asText()).isEqualTo("FAIL");
		assertThat(acceptance.path("engine").path("observed").asText()).isEqualTo("sglang 0.5.4 (GET /get_server_info: version 0.5.4)");
		assertThat(acceptance.path("tool_parser").path("observed").asText()).isEqualTo("engine reports qwen25");
		assertThat(acceptance.path("tool_parser").path("status").asText()).isEqualTo("FAIL");
	}

	@Test
	@DisplayName("a configured base.url that does not answer FAILs (it is not a missing context length)")
	void unreachableFails() throws Exception {
		run("battery", real("http://127.0.0.1:9/v1", 4096)).assertStatistics(stats -> stats.failed(1));
		JsonNode check = artifact().path("acceptance").path("engine_answered");
		assertThat(artifact().path("verdict").asText()).isEqualTo("FAIL");
		assertThat(check.path("observed").asText()).startsWith("GET http://127.0.0.1:9/v1/models got no response: ");
	}

	@Test
	@DisplayName("a context length neither configured nor reported is PENDING_MEASUREMENT, never 131072")
	void unknownContextIsPending() throws Exception {
		try (StubServer engine = StubServer.answering(Map.of("/v1/models", "{\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}]}",
				"/version", "{\"version\":\"0.11.0\"}"))) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 1));
			config.remove(HarnessConstants.CONTEXT_LENGTH);
			run("battery", config).assertStatistics(stats -> stats.aborted(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(contract.path("summary").path("pending_reason").asText()).startsWith("the engine's context length is neither "
				+ "configured nor reported by GET ");
		assertThat(contract.has("shared_config")).isFalse();
	}

	@Test
	@DisplayName("-Pgpu: the reference gateway passed as base.url is a misconfiguration naming base.url, PENDING, not a verdict about it")
	void referenceGatewayAsBaseUrlIsAMisconfiguration() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start();
				GatewayUnderTest gateway = GatewayLauncher.embedded(URI.create(engine.baseUrl()), Dialect.VLLM)) {
			run("gpu", real(gateway.baseUrl().toString(), 32768, engine.model())).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(contract.path("summary").path("pending_reason").asText()).contains("(base.url) is a gateway, not an engine",
				"fak_gateway_*", "point -Dbase.url at the engine itself");
		assertThat(contract.path("target").path("engine").path("gateway_evidence").asText()).contains("fak_gateway_");
		// what the probe found is still recorded: the double's version, relayed by the gateway
		assertThat(contract.path("target").path("engine").path("engine_version").asText()).isEqualTo("0.29.0+engine-double");
	}

	@Test
	@DisplayName("-Pgpu: the engine double speaking another dialect than -Dengine FAILs its engine check, naming the double, never the engine")
	void doubleOfAnotherDialectFails() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start()) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 32768, engine.model()));
			config.put(HarnessConstants.ENGINE, "sglang");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isNotEqualTo("PASS");
		JsonNode check = contract.path("acceptance").path("engine");
		assertThat(check.path("status").asText()).isEqualTo("FAIL");
		assertThat(check.path("expected").asText()).isEqualTo("the sglang dialect (-Dengine) in the engine double's answers");
		assertThat(check.path("observed").asText()).startsWith("engine double speaking vllm (GET /version: version 0.29.0+engine-double");
		assertThat(contract.path("target").path("engine").path("engine_kind").asText()).isEqualTo("engine-double");
	}

	@Test
	@DisplayName("-Pgpu: the engine double behind a proxy that serves only /v1 and strips its Server header: its system_fingerprint says SIMULATED")
	void doubleBehindV1OnlyProxyIsRecognised() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start(); StubServer proxy = StubServer.strippingProxy(engine.baseUrl(), false)) {
			run("gpu", real(proxy.baseUrl(), 32768, engine.model())).assertStatistics(stats -> stats.failed(1));
			JsonNode contract = artifact();
			assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
			assertThat(contract.path("simulated").asText()).contains("system_fingerprint [vllm-0.29.0+engine-double-");
			assertThat(contract.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
			assertThat(contract.path("target").path("engine").path("server_header").isNull()).isTrue();
			assertThat(contract.path("acceptance").path("engine").path("observed").asText()).startsWith("engine double speaking vllm "
					+ "(POST /v1/chat/completions (model " + engine.model() + "): system_fingerprint vllm-0.29.0+engine-double-");
			// its answer's id carries the double's id mark too, recorded with the probe's chat request
			assertThat(chatAnswerId(contract)).matches("chatcmpl-[0-9a-f]{16}")
					.satisfies(id -> assertThat(EngineDoubleMarker.idMarked(id)).isTrue());
		}
	}

	@Test
	@DisplayName("-Pgpu: the SGLang-dialect double behind the same proxy (no system_fingerprint, no Server header, no /metrics): its answer's id mark says SIMULATED")
	void sglangDoubleBehindV1OnlyProxyIsRecognised() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().dialect(Dialect.SGLANG).start();
				StubServer proxy = StubServer.strippingProxy(engine.baseUrl(), false)) {
			Map<String, String> config = new HashMap<>(real(proxy.baseUrl(), 32768, engine.model()));
			config.put(HarnessConstants.ENGINE, "sglang");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
			JsonNode contract = artifact();
			String id = chatAnswerId(contract);
			assertThat(id).matches("[0-9a-f]{32}");
			assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
			assertThat(contract.path("simulated").asText())
					.contains("the id [" + id + "] of its /v1 answer ends in the engine double's id mark");
			assertThat(contract.path("target").path("engine").path("engine_double").asBoolean()).isTrue();
			assertThat(contract.path("target").path("engine").path("engine_double_evidence").asText()).contains("id mark");
			assertThat(contract.path("target").path("engine").path("server_header").isNull()).isTrue();
			assertThat(contract.path("acceptance").path("engine").path("observed").asText())
					.isEqualTo("engine double speaking sglang (POST /v1/chat/completions (model "
							+ engine.model() + "): id " + id + ", the engine double's id mark in sglang's id shape)");
		}
	}

	@Test
	@DisplayName("-Pgpu: an engine whose answers say nothing of it (SGLang's captured answer, a real id, behind a /v1-only server) is PENDING unidentified, never PASS")
	void hiddenEngineIsUnidentified() throws Exception {
		String model = "Qwen/Qwen2.5-VL-7B-Instruct";
		try (StubServer engine = StubServer.answering(Map.of("/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"" + model
				+ "\",\"object\":\"model\",\"owned_by\":\"sglang\",\"root\":\"" + model + "\",\"max_model_len\":32768}]}",
				"/v1/chat/completions", WireFixtures.read("sglang/captured/2026-02-27_sglang-docs_qwen25vl_text.json")))) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 32768, model));
			config.put(HarnessConstants.ENGINE, "sglang");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
			JsonNode contract = artifact();
			assertThat(chatAnswerId(contract)).isEqualTo("f50c5bcb379d4b74acc853b8dbe5b7c9");
			assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
			assertThat(contract.path("summary").path("pending_reason").asText()).startsWith("unidentified engine at " + engine.baseUrl())
					.contains("owned_by sglang on /v1/models is a claim", "set -Dengine.identity=NAME");
			assertThat(contract.path("target").path("engine").path("engine_kind").asText()).isEqualTo("unknown");
			assertThat(contract.path("target").path("engine").path("engine_double").asBoolean()).isFalse();
		}
	}

	@Test
	@DisplayName("-Pgpu: an unidentified engine named by -Dengine.identity: declared in the artifact, the engine check NOT_JUDGED, PENDING, never PASS")
	void declaredEngineIsNotJudged() throws Exception {
		String baseUrl;
		try (StubServer engine = StubServer.answering(Map.of("/v1/models", StubServer.models("m", 4096)))) {
			baseUrl = engine.baseUrl();
			Map<String, String> config = new HashMap<>(real(baseUrl, 4096));
			config.put(HarnessConstants.ENGINE_IDENTITY, "vllm");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(contract.path("acceptance").path("engine").path("status").asText()).isEqualTo("NOT_JUDGED");
		assertThat(contract.path("acceptance").path("engine").path("observed").asText())
				.isEqualTo("vllm, declared by -Dengine.identity, not observed");
		assertThat(contract.path("summary").path("pending_reason").asText()).contains("check engine not judged: the engine at "
				+ baseUrl + " identified itself no way; -Dengine.identity=vllm is a declaration, not an observation");
		assertThat(contract.path("target").path("engine").path("identity").asText()).isEqualTo("declared");
		assertThat(contract.path("provenance").path("engine_identity").asText()).isEqualTo("declared");
	}

	@Test
	@DisplayName("-Pgpu: llama-server, identified by its answers, with -Dengine.identity=vllm: a misconfiguration naming both, never a vLLM PASS")
	void declarationAgainstEvidenceIsAMisconfiguration() throws Exception {
		try (StubServer engine = StubServer.llamaCpp()) {
			Map<String, String> config = new HashMap<>(real(engine.baseUrl(), 2048, "tiny-random-llama"));
			config.put(HarnessConstants.ENGINE_IDENTITY, "vllm");
			run("gpu", config).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("PENDING_MEASUREMENT");
		assertThat(contract.path("summary").path("pending_reason").asText())
				.contains("engine.identity declares vllm but the engine at", "identified itself as llama.cpp b1-de3ff81",
						"remove -Dengine.identity");
		assertThat(contract.path("target").path("engine").path("engine_kind").asText()).isEqualTo("llama.cpp");
		assertThat(contract.path("acceptance").has("engine")).as("no engine check on a misconfiguration").isFalse();
	}

	@Test
	@DisplayName("-Pgpu: the same proxy relaying /metrics: the vllm: families would read as vLLM, but the double's comment says SIMULATED")
	void doubleBehindMetricsRelayIsSimulated() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().start(); StubServer proxy = StubServer.strippingProxy(engine.baseUrl(), true)) {
			run("gpu", real(proxy.baseUrl(), 32768, engine.model())).assertStatistics(stats -> stats.failed(1));
		}
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(contract.path("simulated").asText()).contains("its /metrics page carries the engine double's comment");
		assertThat(contract.path("target").path("engine").path("server_header").isNull()).isTrue();
	}

	@Test
	@DisplayName("-Pgpu: engine.cmd starts the engine and the rung probes it (here the double: SIMULATED, origin engine.cmd)")
	void engineCommandIsProbed() throws Exception {
		String classpath = System.getProperty("java.class.path");
		String command = "exec " + ChildJava.shellCommand() + " -cp '" + classpath
				+ "' dev.fakbattery.engine.Main --dialect vllm "
				+ "--port {port} --model {model}";
		Map<String, String> config = new HashMap<>(real("unused", 32768));
		config.remove(HarnessConstants.BASE_URL);
		config.put(HarnessConstants.ENGINE_CMD, command);
		config.put(HarnessConstants.ENGINE_CMD_TIMEOUT_SEC, "60");
		run("gpu", config).assertStatistics(stats -> stats.failed(1));
		JsonNode contract = artifact();
		assertThat(contract.path("verdict").asText()).isEqualTo("SIMULATED");
		assertThat(contract.path("target").path("engine").path("origin").asText()).isEqualTo("engine.cmd");
		assertThat(contract.path("shared_config").path("raw_vllm_base_url").asText()).isEqualTo("started from engine.cmd");
		assertThat(contract.path("acceptance").path("served_model").path("status").asText()).isEqualTo("PASS");
	}

	@Test
	@DisplayName("-Pgpu with nothing configured names base.url")
	void gpuNamesBaseUrl() throws Exception {
		run("gpu", Map.of()).assertStatistics(stats -> stats.failed(1));
		assertThat(artifact().path("summary").path("pending_reason").asText())
				.isEqualTo("raw engine base URL is not configured (set -Dbase.url=http://HOST:8000/v1)");
	}

	private static Map<String, String> real(String baseUrl, int contextLength) {
		return real(baseUrl, contextLength, "m");
	}

	private static Map<String, String> real(String baseUrl, int contextLength, String model) {
		return Map.of(HarnessConstants.BASE_URL, baseUrl, HarnessConstants.MODEL, model, HarnessConstants.QUANT, "fp8",
				HarnessConstants.CONTEXT_LENGTH, String.valueOf(contextLength));
	}

	private Events run(String profile, Map<String, String> config) {
		Map<String, String> all = new HashMap<>(config);
		all.put(HarnessConstants.EXPERIMENTS_DIR, dir.toString());
		all.put(HarnessConstants.ALLOW_PENDING, String.valueOf(!profile.equals("gpu")));
		all.put(HarnessConstants.PROFILE, profile);
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectClass(ContractRungTests.class))
				.configurationParameters(HarnessConfig.hermeticParameters(all))
				.execute()
				.testEvents();
	}

	/** The id of the probe's chat answer, as its probed line records it. */
	private static String chatAnswerId(JsonNode contract) {
		for (JsonNode line : contract.path("target").path("engine").path("probed")) {
			Matcher id = Pattern.compile("POST /v1/chat/completions \\(max_tokens 1\\): HTTP 200, id (\\S+),")
					.matcher(line.asText());
			if (id.lookingAt()) {
				return id.group(1);
			}
		}
		throw new AssertionError("no chat answer id among " + contract.path("target").path("engine").path("probed"));
	}

	private JsonNode artifact() throws Exception {
		return Json.MAPPER.readTree(dir.resolve("raw-vllm-vs-fak-gateway-contract.json").toFile());
	}
}
