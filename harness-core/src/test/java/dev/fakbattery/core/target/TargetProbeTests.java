package dev.fakbattery.core.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Optional;

import dev.fakbattery.wire.EngineDoubleMarker;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TargetProbe: what it records of each engine's endpoints")
// waits on processes and servers it starts: beside the other classes (junit-platform.properties)
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class TargetProbeTests {

	private static TargetIdentity probe(ProbedEngine engine) {
		return TargetProbe.probe(engine.baseUrl(), "base.url", Optional.empty());
	}

	@Test
	@DisplayName("SGLang: /get_server_info names it, with its tool parser and context length; the Server header of a later answer is kept")
	void sglang() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("\"owned_by\":\"sglang\"")
				.on("/get_server_info", 200, "{\"version\":\"0.4.9\",\"tool_call_parser\":\"qwen25\",\"context_length\":32768}", "sgl")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("sglang");
			assertThat(id.engineVersion()).isEqualTo("0.4.9");
			assertThat(id.toolParser()).isEqualTo("qwen25");
			assertThat(id.contextLength()).isEqualTo(32768);
			assertThat(id.server()).isEqualTo("sgl");
			assertThat(id.ownedBy()).isEqualTo("sglang");
			assertThat(id.servedModels()).containsExactly("m");
			assertThat(id.identifiedBy()).containsExactly("GET /get_server_info: version 0.4.9");
			assertThat(id.probed()).containsExactly("GET /v1/models: HTTP 200, owned_by sglang",
					"GET /get_server_info: HTTP 200, version 0.4.9",
					"GET /version: HTTP 404", "GET /props: HTTP 404", "GET /metrics: HTTP 404", "Server header: sgl");
			assertThat(id.problem()).isNull();
			assertThat(id.doubleEvidence()).isNull();
			assertThat(id.origin()).isEqualTo("base.url");
			assertThat(id.baseUrl()).isEqualTo(engine.baseUrl());
			assertThat(id.identityOverride()).isNull();
		}
	}

	@Test
	@DisplayName("vLLM: /version names it; the context length of /v1/models wins; no Server header recorded when none came")
	void vllm() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("\"owned_by\":\"vllm\",\"max_model_len\":4096")
				.on("/version", "{\"version\":\"0.11.0\",\"context_length\":99}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("vllm");
			assertThat(id.engineVersion()).isEqualTo("0.11.0");
			assertThat(id.contextLength()).isEqualTo(4096);
			assertThat(id.toolParser()).isNull();
			assertThat(id.server()).isNull();
			assertThat(id.identifiedBy()).containsExactly("GET /version: version 0.11.0");
			assertThat(id.probed()).containsExactly("GET /v1/models: HTTP 200, owned_by vllm", "GET /get_server_info: HTTP 404",
					"GET /version: HTTP 200, version 0.11.0", "GET /props: HTTP 404", "GET /metrics: HTTP 404");
		}
	}

	@Test
	@DisplayName("llama.cpp: /props build_info names it; n_ctx of the card's meta is its context length")
	void llamaCppCardContext() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("\"owned_by\":\"llamacpp\",\"meta\":{\"n_ctx\":2048}")
				.on("/props", "{\"build_info\":\"b5000-abc\",\"default_generation_settings\":{\"n_ctx\":8192}}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("llama.cpp");
			assertThat(id.engineVersion()).isEqualTo("b5000-abc");
			assertThat(id.contextLength()).isEqualTo(2048);
			assertThat(id.identifiedBy()).containsExactly("GET /props: build_info b5000-abc");
			assertThat(id.probed()).contains("GET /props: HTTP 200, build_info b5000-abc");
		}
	}

	@Test
	@DisplayName("llama.cpp without a context on its card: /props default_generation_settings.n_ctx is the context length")
	void llamaCppPropsContext() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("\"max_model_len\":\"4096\"")
				.on("/props", "{\"build_info\":\"b5000\",\"default_generation_settings\":{\"n_ctx\":8192}}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.contextLength()).as("a textual max_model_len is no number").isEqualTo(8192);
			assertThat(id.ownedBy()).isNull();
			assertThat(id.probed().get(0)).isEqualTo("GET /v1/models: HTTP 200");
		}
	}

	@Test
	@DisplayName("a context length beyond an int, or a non-numeric owned_by, is not recorded")
	void unrepresentableFieldsAreNull() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("\"owned_by\":7,\"max_model_len\":99999999999")) {
			TargetIdentity id = probe(engine);
			assertThat(id.contextLength()).isNull();
			assertThat(id.ownedBy()).isNull();
		}
	}

	@Test
	@DisplayName("a /version answer names vLLM only where no engine's own info endpoint answered: it is recorded, not trusted, beside /get_server_info")
	void versionGivesWayToAnEnginesOwnEndpoint() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", "{\"version\":\"0.4.9\"}")
				.on("/version", "{\"version\":\"0.11.0\",\"tool_call_parser\":\"hermes\",\"context_length\":1024}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("sglang");
			assertThat(id.engineVersion()).isEqualTo("0.4.9");
			assertThat(id.toolParser()).isNull();
			assertThat(id.contextLength()).isNull();
			assertThat(id.identifiedBy()).containsExactly("GET /get_server_info: version 0.4.9");
			assertThat(id.probed()).contains("GET /version: HTTP 200, version 0.11.0");
		}
	}

	@Test
	@DisplayName("a version with a non-200 status or a blank one identifies nothing")
	void unansweredVersionsIdentifyNothing() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", 500, "{\"version\":\"0.4.9\"}", null)
				.on("/version", "{\"version\":\" \"}")
				.on("/props", "{\"build_info\":{}}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.engineVersion()).isNull();
			assertThat(id.identifiedBy()).isEmpty();
			assertThat(id.probed()).containsExactly("GET /v1/models: HTTP 200", "GET /get_server_info: HTTP 500", "GET /version: HTTP 200",
					"GET /props: HTTP 200", "GET /metrics: HTTP 404", "POST /v1/chat/completions (max_tokens 1): HTTP 404");
		}
	}

	@Test
	@DisplayName("metric families: counted per prefix without labels and histogram suffixes; families of two engines identify none")
	void metricFamilies() throws Exception {
		String page = "# HELP vllm:latency_seconds latency\n# TYPE vllm:latency_seconds histogram\n"
				+ "vllm:latency_seconds_bucket{le=\"0.1\",model_name=\"a b\"} 1\nvllm:latency_seconds_sum 2\n"
				+ "vllm:latency_seconds_count 3\nvllm:latency_seconds_created 4\nvllm:requests_total{model_name=\"m\"} 5\n"
				+ "vllm:running 0\nvllm:bare\nsglang:token_usage{x=\"y z\"} 0.1\nsglang:token_usage 0.2\nother:thing 1\n";
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/metrics", page)) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.engineVersion()).isNull();
			assertThat(id.identifiedBy()).isEmpty();
			assertThat(id.conflict()).isEqualTo("GET /metrics: 4 metric families named vllm:* says vllm; "
					+ "GET /metrics: 1 metric families named sglang:* says sglang");
			assertThat(id.probed()).contains("GET /metrics: HTTP 200, 4 vllm: families, 1 sglang: families");
			assertThat(id.doubleEvidence()).isNull();
		}
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/metrics", page.replaceAll("sglang:.*\n", ""))) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isEqualTo("vllm");
			assertThat(id.identifiedBy()).containsExactly("GET /metrics: 4 metric families named vllm:*");
		}
	}

	@Test
	@DisplayName("a label value with a space before the first brace does not cut the family name; a space-only line is its own family")
	void familyNameEndsAtTheFirstBraceOrSpace() throws Exception {
		String page = "llamacpp:a{l=\"x\"} 1\nllamacpp:a 2\nllamacpp:b{l=\"x y\"} 1\nllamacpp:b 2\n";
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/metrics", page)) {
			assertThat(probe(engine).identifiedBy()).containsExactly("GET /metrics: 2 metric families named llamacpp:*");
			assertThat(probe(engine).probedKind()).isEqualTo("llama.cpp");
		}
	}

	@Test
	@DisplayName("a version endpoint and metric families that name two engines identify none: conflicting evidence is no identification")
	void conflictingEvidenceIdentifiesNothing() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", "{\"version\":\"0.4.9\"}")
				.on("/metrics", "vllm:running 0\n")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.engineVersion()).isNull();
			assertThat(id.identifiedBy()).isEmpty();
			assertThat(id.conflict()).isEqualTo("GET /get_server_info: version 0.4.9 says sglang; "
					+ "GET /metrics: 1 metric families named vllm:* says vllm");
			assertThat(id.unidentified()).hasValueSatisfying(why -> assertThat(why).contains("its answers name different engines"));
		}
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/get_server_info", "{\"version\":\"0.4.9\"}")
				.on("/metrics", "sglang:token_usage 0\n")) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).as("evidence that agrees").isEqualTo("sglang");
			assertThat(id.identifiedBy()).containsExactly("GET /get_server_info: version 0.4.9",
					"GET /metrics: 1 metric families named sglang:*");
		}
	}

	@Test
	@DisplayName("a /metrics page that is not HTTP 200 identifies nothing and is no evidence of the double")
	void failedMetricsPageCountsForNothing() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/metrics", 503, EngineDoubleMarker.METRICS_COMMENT + "\nvllm:running 0\n", null)) {
			TargetIdentity id = probe(engine);
			assertThat(id.probedKind()).isNull();
			assertThat(id.identifiedBy()).isEmpty();
			assertThat(id.doubleEvidence()).isNull();
			assertThat(id.probed()).contains("GET /metrics: HTTP 503");
		}
	}

	@Test
	@DisplayName("identify answers from its cache for the same server, and asks again when another server listens on the same port since")
	void samePortAnotherServer() throws Exception {
		org.assertj.core.api.Assumptions.assumeThat(java.nio.file.Path.of("/proc/net/tcp")).as("Linux's /proc/net/tcp").exists();
		// Another test class running beside this one may take the freed port before the second server binds
		// it (a client's ephemeral port or its own server): the scenario then starts over on a new port.
		int attempts = 0;
		while (!portReusedByAnotherServer()) {
			assertThat(++attempts).as("attempts to bind a second server on a port just freed (each taken by another process first)")
					.isLessThan(5);
		}
		assertThat(TargetProbe.listeners(URI.create("http://example.com:8000/v1"))).as("a URL not on this machine").isEmpty();
	}

	/** The scenario of {@link #samePortAnotherServer()}; false when the freed port was taken before the second bind. */
	private static boolean portReusedByAnotherServer() throws Exception {
		int port;
		try (dev.fakbattery.core.StubEngine first = dev.fakbattery.core.StubEngine.start("0.11.0", EngineDoubleMarker.SERVER)) {
			port = first.uri().getPort();
			TargetIdentity double_ = TargetProbe.identify(first.uri(), "base.url", Optional.empty());
			assertThat(double_.engineDouble()).as("the first server, the double by its Server header").isTrue();
			assertThat(TargetProbe.identify(first.uri(), "base.url", Optional.empty())).as("asked again: the cached answer")
					.isSameAs(double_);
		}
		dev.fakbattery.core.StubEngine second;
		try {
			second = dev.fakbattery.core.StubEngine.startOn(port, "0.11.0", null, null);
		}
		catch (java.net.BindException taken) {
			return false;
		}
		try (second) {
			TargetIdentity engine = TargetProbe.identify(second.uri(), "base.url", Optional.empty());
			assertThat(engine.engineDouble()).as("the server now on port %d, which is not the double: %s", port, engine.probed()).isFalse();
			assertThat(engine.engineVersion()).isEqualTo("0.11.0");
		}
		return true;
	}

	@Test
	@DisplayName("the double is recognised by its version suffix, its Server header or its /metrics comment")
	void doubleEvidence() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/version", "{\"version\":\"0.11.0" + EngineDoubleMarker.SUFFIX + "\"}")) {
			assertThat(probe(engine).doubleEvidence()).startsWith("its version [0.11.0+engine-double]");
		}
		try (ProbedEngine engine = ProbedEngine.start().on("/v1/models", 200, "{\"data\":[{\"id\":\"m\"}]}", EngineDoubleMarker.SERVER)) {
			TargetIdentity id = probe(engine);
			assertThat(id.doubleEvidence()).startsWith("its Server header [fak-battery-engine-double]");
			assertThat(id.probed()).contains("Server header: fak-battery-engine-double");
		}
		try (ProbedEngine engine = ProbedEngine.start()
				.models("")
				.on("/metrics", EngineDoubleMarker.METRICS_COMMENT + "\nvllm:running 0\n")) {
			TargetIdentity id = probe(engine);
			assertThat(id.doubleEvidence()).startsWith("its /metrics page carries the engine double's comment");
			assertThat(id.probedKind()).isEqualTo("vllm");
		}
	}

	@Test
	@DisplayName("an engine reached as embedded is the double though it says nothing; the same engine through base.url is not")
	void embeddedOriginIsTheDouble() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/version", "{\"version\":\"0.11.0\"}")) {
			TargetIdentity embedded = TargetProbe.probe(engine.baseUrl(), TargetIdentity.EMBEDDED, Optional.empty());
			assertThat(embedded.doubleEvidence()).isEqualTo("it was started in this JVM as the embedded engine double");
			assertThat(embedded.origin()).isEqualTo(TargetIdentity.EMBEDDED);
			assertThat(probe(engine).doubleEvidence()).isNull();
		}
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/version", "{\"version\":\"0.11.0+engine-double\"}")) {
			assertThat(TargetProbe.probe(engine.baseUrl(), TargetIdentity.EMBEDDED, Optional.empty()).doubleEvidence())
					.as("the engine's own evidence is kept")
					.startsWith("its version");
		}
	}

	@Test
	@DisplayName("the api key is sent as a bearer token on every request; without one no Authorization header is sent")
	void apiKeyIsBearer() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("")) {
			TargetProbe.probe(engine.baseUrl(), "base.url", Optional.of("sk-1"));
			assertThat(engine.authorizations).as("five GETs and the chat request of an unidentified engine")
					.hasSize(6)
					.containsOnly("Bearer sk-1");
			engine.authorizations.clear();
			probe(engine);
			assertThat(engine.authorizations).hasSize(6).containsOnly("none");
		}
	}

	@Test
	@DisplayName("problem: /v1/models not HTTP 200, or without data[].id; none when it lists a model")
	void modelsProblems() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start()) {
			TargetIdentity id = probe(engine);
			assertThat(id.problem()).isEqualTo("GET " + engine.baseUrl() + "/models answered HTTP 404");
			assertThat(id.servedModels()).isEmpty();
			assertThat(id.probed().get(0)).isEqualTo("GET /v1/models: HTTP 404");
		}
		try (ProbedEngine engine = ProbedEngine.start().on("/v1/models", "{\"object\":\"list\",\"data\":[]}")) {
			assertThat(probe(engine).problem()).isEqualTo("GET " + engine.baseUrl() + "/models answered no data[].id");
		}
		try (ProbedEngine engine = ProbedEngine.start().on("/v1/models", "{\"data\":[{\"id\":\"a\"},{\"id\":\"b\",\"owned_by\":\"x\"}]}")) {
			TargetIdentity id = probe(engine);
			assertThat(id.problem()).isNull();
			assertThat(id.servedModels()).containsExactly("a", "b");
			assertThat(id.ownedBy()).as("owned_by of the first card only").isNull();
		}
	}

	@Test
	@DisplayName("problem: nothing listening names the failure, and every request records no response")
	void noResponse() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		URI base = URI.create("http://127.0.0.1:" + port + "/v1");
		TargetIdentity id = TargetProbe.probe(base, "base.url", Optional.empty());
		assertThat(id.problem()).startsWith("GET " + base + "/models got no response: ").contains("ConnectException");
		assertThat(id.probed()).hasSize(5).allMatch(line -> line.contains(": no response (ConnectException"));
		assertThat(id.probedKind()).isNull();
		assertThat(id.server()).isNull();
	}

	@Test
	@DisplayName("an interrupted probe asks nothing further and leaves the thread interrupted")
	void interruptedProbe() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/version", "{\"version\":\"0.11.0\"}")) {
			Thread.currentThread().interrupt();
			TargetIdentity id;
			try {
				id = probe(engine);
			}
			finally {
				assertThat(Thread.interrupted()).as("interrupt status kept").isTrue();
			}
			assertThat(id.probed()).hasSize(5).allMatch(line -> line.contains("no response (interrupted)"));
			assertThat(id.probedKind()).isNull();
		}
	}

	@Test
	@DisplayName("identify asks once per origin and base URL: a second ask answers the cached identity")
	void identifyCaches() throws Exception {
		try (ProbedEngine engine = ProbedEngine.start().models("").on("/version", "{\"version\":\"0.11.0\"}")) {
			TargetIdentity first = TargetProbe.identify(engine.baseUrl(), "base.url", Optional.empty());
			assertThat(first.probedKind()).isEqualTo("vllm");
			assertThat(TargetProbe.identify(engine.baseUrl(), "base.url", Optional.empty())).isSameAs(first);
			assertThat(engine.authorizations).hasSize(5);
			TargetIdentity other = TargetProbe.identify(engine.baseUrl(), "engine.cmd", Optional.empty());
			assertThat(other.origin()).isEqualTo("engine.cmd");
			assertThat(engine.authorizations).hasSize(10);
		}
	}
}
