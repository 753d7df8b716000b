package dev.fakbattery.engine;

import static dev.fakbattery.engine.WireShapes.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fakbattery.wire.Dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("health, version, metrics, cache reset and the request log")
class AdminEndpointsTests {

	static final Pattern SAMPLE = Pattern.compile("^([a-z_:]+?)(?:_bucket|_count|_sum)?(?:\\{([^}]*)})? \\S+$", Pattern.MULTILINE);

	static final Pattern LABEL = Pattern.compile("([a-z_]+)=\"");

	static final Map<Dialect, EngineDouble> ENGINES = new TreeMap<>();

	@BeforeAll
	static void start() throws IOException {
		for (Dialect dialect : EngineDouble.DIALECTS) {
			ENGINES.put(dialect, EngineDouble.builder().dialect(dialect).timing(TimingModel.instant()).completionTokens(4).start());
		}
	}

	@AfterAll
	static void stop() {
		ENGINES.values().forEach(EngineDouble::close);
	}

	/** Metric name to the label-name sets its samples use (without {@code le}), from Prometheus text. */
	static Map<String, Set<Set<String>>> metrics(String text) {
		Map<String, Set<Set<String>>> metrics = new TreeMap<>();
		Matcher m = SAMPLE.matcher(text);
		while (m.find()) {
			Set<String> labels = new TreeSet<>();
			if (m.group(2) != null) {
				Matcher label = LABEL.matcher(m.group(2));
				while (label.find()) {
					labels.add(label.group(1));
				}
			}
			labels.remove("le");
			labels.remove("finished_reason");
			metrics.computeIfAbsent(m.group(1), name -> new java.util.HashSet<>()).add(labels);
		}
		return metrics;
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("/metrics exports every metric of the sample, each with a label set the sample uses")
	void metricNames(Dialect dialect) {
		Map<String, Set<Set<String>>> sample = metrics(WireShapes.resource(dialect.id() + "/metrics.txt"));
		HttpResponse<String> response = TestHttp.get(ENGINES.get(dialect).rootUrl() + "/metrics");
		Map<String, Set<Set<String>>> exported = metrics(response.body());

		assertThat(response.headers().firstValue("content-type")).contains("text/plain; version=0.0.4; charset=utf-8");
		assertThat(sample).isNotEmpty();
		// SGLang's sample mixes an older block (model_name only) and a newer one (scheduler labels): accept either
		Set<Set<String>> sampleLabelSets = new java.util.HashSet<>();
		sample.values().forEach(sampleLabelSets::addAll);
		assertThat(exported).containsKeys(sample.keySet().toArray(String[]::new));
		exported.forEach((name, labelSets) -> assertThat(sampleLabelSets).as(name + " labels").containsAll(labelSets));
		assertThat(exported.keySet()).allMatch(name -> name.startsWith(dialect.id() + ":"));
	}

	@Test
	@DisplayName("/metrics values come from the double's counters")
	void metricValues() {
		EngineDouble engine = ENGINES.get(Dialect.VLLM);
		String before = TestHttp.get(engine.rootUrl() + "/metrics").body();
		TestHttp.post(engine.baseUrl() + "/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"one two three\"}]}");
		String after = TestHttp.get(engine.rootUrl() + "/metrics").body();

		assertThat(value(after, "vllm:generation_tokens_total") - value(before, "vllm:generation_tokens_total")).isEqualTo(5.0);
		assertThat(value(after, "vllm:prompt_tokens_total") - value(before, "vllm:prompt_tokens_total")).isEqualTo(3.0);
		assertThat(value(after, "vllm:time_to_first_token_seconds_count") - value(before, "vllm:time_to_first_token_seconds_count"))
				.isEqualTo(1.0);
		// the request counter drops when the handler returns, which can be just after the client read the answer
		String settled = after;
		for (int i = 0; i < 50 && value(settled, "vllm:num_requests_running") != 0; i++) {
			settled = TestHttp.get(engine.rootUrl() + "/metrics").body();
		}
		assertThat(value(settled, "vllm:num_requests_running")).isZero();
		assertThat(after).contains("# TYPE vllm:request_success_total counter\n");
	}

	static double value(String text, String name) {
		Matcher m = Pattern.compile("^" + Pattern.quote(name) + "\\{[^}]*} (\\S+)$", Pattern.MULTILINE).matcher(text);
		assertThat(m.find()).as(name).isTrue();
		return Double.parseDouble(m.group(1));
	}

	@ParameterizedTest
	@EnumSource(names = { "VLLM", "SGLANG" })
	@DisplayName("/health answers 200 with an empty body; /version names the engine version")
	void healthAndVersion(Dialect dialect) {
		HttpResponse<String> health = TestHttp.get(ENGINES.get(dialect).rootUrl() + "/health");
		HttpResponse<String> version = TestHttp.get(ENGINES.get(dialect).rootUrl() + "/version");

		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).isEmpty();
		assertThat(version.body())
				.isEqualTo(dialect == Dialect.VLLM ? "{\"version\":\"0.29.0+engine-double\"}" : "{\"version\":\"0.5.20+engine-double\"}");
	}

	@Test
	@DisplayName("SGLang /get_server_info reports the served model, context length and version")
	void serverInfo() {
		HttpResponse<String> info = TestHttp.get(ENGINES.get(Dialect.SGLANG).rootUrl() + "/get_server_info");

		assertThat(parse(info.body()).get("served_model_name").asText()).isEqualTo("Qwen/Qwen2.5-7B-Instruct");
		assertThat(parse(info.body()).get("context_length").asInt()).isEqualTo(32768);
		assertThat(parse(info.body()).get("version").asText()).isEqualTo("0.5.20+engine-double");
	}

	@Test
	@DisplayName("vLLM POST /reset_prefix_cache and SGLang /flush_cache are counted; the other dialect's path is 404")
	void resets() {
		EngineDouble v = ENGINES.get(Dialect.VLLM);
		EngineDouble s = ENGINES.get(Dialect.SGLANG);
		long vBefore = v.resetCount();
		long sBefore = s.resetCount();

		HttpResponse<String> vReset = TestHttp.post(v.rootUrl() + "/reset_prefix_cache", "");
		HttpResponse<String> sFlush = TestHttp.post(s.rootUrl() + "/flush_cache", "");
		HttpResponse<String> sFlushGet = TestHttp.get(s.rootUrl() + "/flush_cache");
		HttpResponse<String> vWrong = TestHttp.post(v.rootUrl() + "/flush_cache", "");
		HttpResponse<String> vGet = TestHttp.get(v.rootUrl() + "/reset_prefix_cache");

		assertThat(vReset.statusCode()).isEqualTo(200);
		assertThat(sFlush.body()).startsWith("Cache flushed.\n");
		assertThat(sFlushGet.statusCode()).isEqualTo(200);
		assertThat(v.resetCount() - vBefore).isEqualTo(1);
		assertThat(s.resetCount() - sBefore).isEqualTo(2);
		assertThat(vWrong.statusCode()).isEqualTo(404);
		assertThat(vWrong.body()).isEqualTo("{\"detail\":\"Not Found\"}");
		assertThat(vGet.statusCode()).isEqualTo(405);
		assertThat(vGet.body()).isEqualTo("{\"detail\":\"Method Not Allowed\"}");
	}

	@Test
	@DisplayName("the request log keeps what was received: method, path, lower-cased headers, exact body")
	void requestLog() throws IOException {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).recordLimit(2).start()) {
			String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}],  \"stream\":false}";
			TestHttp.get(engine.rootUrl() + "/health");
			TestHttp.post(engine.baseUrl() + "/chat/completions?trace=1", body, "Authorization", "Bearer sk-test", "X-Gateway", "g1");
			TestHttp.get(engine.baseUrl() + "/models");
			RecordedRequest chat = engine.lastRequest("/v1/chat/completions").orElseThrow();

			assertThat(engine.recordedRequests()).extracting(RecordedRequest::path).containsExactly("/v1/chat/completions", "/v1/models");
			assertThat(engine.lastRequest()).map(RecordedRequest::path).contains("/v1/models");
			assertThat(chat.method()).isEqualTo("POST");
			assertThat(chat.query()).isEqualTo("trace=1");
			assertThat(chat.body()).isEqualTo(body);
			assertThat(chat.header("authorization")).contains("Bearer sk-test");
			assertThat(chat.header("X-GATEWAY")).contains("g1");
			assertThat(engine.requestCount()).isEqualTo(1);
		}
	}
}
