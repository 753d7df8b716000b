package dev.fakbattery.engine;

import java.io.IOException;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireJson;

/**
 * The endpoints besides chat: model list, health, version, server info (SGLang), metrics and the dialect's
 * cache-reset endpoint.
 *
 * @since 0.1
 */
final class InfoEndpoints {

	/** SGLang's {@code /flush_cache} success text. */
	static final String FLUSH_CACHE_TEXT = "Cache flushed.\nPlease check backend logs for more details. "
			+ "(When there are running or waiting requests, the operation will not be performed.)\n";

	private final Dialect dialect;

	private final Wire wire;

	private final EngineIdentity identity;

	private final EngineCounters counters;

	InfoEndpoints(Dialect dialect, Wire wire, EngineIdentity identity, EngineCounters counters) {
		this.dialect = dialect;
		this.wire = wire;
		this.identity = identity;
		this.counters = counters;
	}

	void register(Router router) {
		Set<String> get = Set.of("GET");
		router.route("/v1/models", get, (exchange, body, arrival) -> Http.send(exchange, 200, Http.JSON, wire.models()));
		router.route("/health", get, (exchange, body, arrival) -> Http.send(exchange, 200, null, ""));
		router.route("/version", get, this::version);
		router.route("/metrics", get, (exchange, body, arrival) -> Http.send(exchange, 200,
				"text/plain; version=0.0.4; charset=utf-8", MetricsPage.render(dialect, identity.model(), counters)));
		if (dialect == Dialect.VLLM) {
			router.route("/reset_prefix_cache", Set.of("POST"), (exchange, body, arrival) -> {
				counters.resets.increment();
				counters.prefixCache.reset();
				Http.send(exchange, 200, null, "");
			});
		}
		else {
			router.route("/flush_cache", Set.of("GET", "POST"), (exchange, body, arrival) -> {
				counters.resets.increment();
				counters.prefixCache.reset();
				Http.send(exchange, 200, Http.TEXT, FLUSH_CACHE_TEXT);
			});
			router.route("/get_server_info", get, this::serverInfo);
		}
	}

	private void version(HttpExchange exchange, byte[] body, long arrival) throws IOException {
		Http.send(exchange, 200, Http.JSON, WireJson.write(WireJson.object().put("version", identity.version())));
	}

	/** A small subset of SGLang's server args plus its version. */
	private void serverInfo(HttpExchange exchange, byte[] body, long arrival) throws IOException {
		ObjectNode info = WireJson.object();
		info.put("model_path", identity.model());
		info.put("tokenizer_path", identity.model());
		info.put("served_model_name", identity.model());
		info.put("context_length", identity.maxModelLen());
		info.put("tool_call_parser", "qwen25");
		info.put("enable_metrics", true);
		info.put("weight_version", "default");
		info.putArray("internal_states").addObject().put("last_gen_throughput", 0.0);
		info.put("version", identity.version());
		Http.send(exchange, 200, Http.JSON, WireJson.write(info));
	}
}
