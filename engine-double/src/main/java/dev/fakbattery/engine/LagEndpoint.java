package dev.fakbattery.engine;

import java.util.Map;
import java.util.Set;

import dev.fakbattery.wire.WireJson;

/**
 * {@value EngineDouble#LAG_PATH}: the double's scheduling lag as JSON ({@code count, p50_us, p99_us, max_us}, nulls
 * when nothing was recorded), and {@code POST} to it plus {@code /reset} to clear it, so a double in another process
 * can still invalidate a run.
 *
 * @since 0.3
 */
final class LagEndpoint {

	private LagEndpoint() {
	}

	static void register(Router router, EngineDouble engine) {
		router.route(EngineDouble.LAG_PATH, Set.of("GET"), (exchange, body, arrival) -> Http.send(exchange, 200, Http.JSON,
				json(engine.schedulingLag())));
		router.route(EngineDouble.LAG_PATH + "/reset", Set.of("POST"), (exchange, body, arrival) -> {
			engine.resetStats();
			Http.send(exchange, 200, Http.JSON, json(engine.schedulingLag()));
		});
	}

	static String json(LagStats lag) {
		var node = WireJson.object().put("count", lag.count());
		for (var entry : Map.of("p50_us", lag.p50Micros(), "p99_us", lag.p99Micros(), "max_us", lag.maxMicros()).entrySet()) {
			if (Double.isNaN(entry.getValue())) {
				node.putNull(entry.getKey());
			}
			else {
				node.put(entry.getKey(), entry.getValue());
			}
		}
		return WireJson.write(node);
	}
}
