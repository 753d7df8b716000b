package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the Netty read floor of the client ceiling bench")
class NettyReadFloorTests {

	@Test
	@DisplayName("reads whole streams closed loop: every request's chunks are events, none fails, the loop's lag is probed")
	void readsStreams() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).completionTokens(8).start()) {
			ObjectNode node = JsonNodeFactory.instance.objectNode();
			new NettyReadFloor(URI.create(engine.rootUrl()), ChatPayload.streaming(engine.model(), "hi", 8))
					.run(4, Duration.ofMillis(300), Duration.ofSeconds(1), node);

			assertThat(node.path("failed").asLong()).isZero();
			assertThat(node.path("requests").asLong()).isPositive();
			assertThat(node.path("events").asLong()).isGreaterThanOrEqualTo(8 * node.path("requests").asLong());
			assertThat(node.path("cpu_ms_per_request").asDouble()).isPositive();
			assertThat(node.path("loop_lag").path("count").asLong()).isPositive();
		}
	}

	@Test
	@DisplayName("an answer that is not 200 counts as failed, never as a read request")
	void failedAnswers() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		server.createContext("/", exchange -> {
			exchange.getRequestBody().readAllBytes();
			exchange.sendResponseHeaders(500, -1);
			exchange.close();
		});
		server.start();
		try {
			ObjectNode node = JsonNodeFactory.instance.objectNode();
			new NettyReadFloor(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), ChatPayload.streaming("m", "hi", 8))
					.run(2, Duration.ofMillis(200), Duration.ofMillis(500), node);

			assertThat(node.path("requests").asLong()).isZero();
			assertThat(node.path("events").asLong()).isZero();
			assertThat(node.path("failed").asLong()).isPositive();
		}
		finally {
			server.stop(0);
		}
	}
}
