package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The gateway's own limits at the unit level (the fault rules F01..F07 of conformance-tests hold any gateway to
 * them): request body and headers, the upstream timeout, the bind address, and request bodies kept out of logs.
 */
// runs alone (junit-platform.properties runs classes concurrently): its upstream timeout is 500 ms
@DisplayName("limits, bind address and body logging")
@Timeout(60)
@Isolated
@EveryFront
class LimitsTests {

	private final HttpFront front;

	LimitsTests(HttpFront front) {
		this.front = front;
	}

	private static final GatewayLimits SMALL = new GatewayLimits(Duration.ofMillis(500), 1000, 600, 4096);

	@Test
	@DisplayName("a body over the limit is 413 whether its length is declared or it comes chunked; nothing reaches the engine")
	void bodyLimit() throws Exception {
		try (UpstreamDouble upstream = UpstreamDouble.start(); ReferenceGateway gateway = start(upstream, SMALL)) {
			upstream.chat(UpstreamDouble.fixture("vllm/chat-text"));
			String big = GatewayClient.request("m", false).replace("check the hosts file", "x".repeat(1000));
			GatewayClient.Answer declared = GatewayClient.chat(gateway.baseUrl(), big);
			HttpResponse<String> chunked = GatewayClient.HTTP
					.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/chat/completions"))
							.POST(HttpRequest.BodyPublishers
									.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
							.build(), HttpResponse.BodyHandlers.ofString());

			assertThat(declared.status()).isEqualTo(413);
			assertThat(declared.body())
					.isEqualTo("{\"error\":{\"message\":\"request body is " + big.length() + " bytes, over the gateway's limit "
							+ "of 1000 bytes\",\"type\":\"RequestTooLargeError\",\"param\":null,\"code\":413}}");
			assertThat(chunked.statusCode()).isEqualTo(413);
			assertThat(chunked.body()).contains("request body is more than 1000 bytes, over the gateway's limit of 1000 bytes");
			assertThat(upstream.received("/v1/chat/completions")).isEmpty();
		}
	}

	@Test
	@DisplayName("regression: a chunked body under an unbounded body limit is read whole (maxBodyBytes + 1 overflowed to 0 bytes)")
	void chunkedBodyUnderHugeLimit() throws Exception {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = start(upstream, SMALL.withMaxBodyBytes(Long.MAX_VALUE).withMaxHeaderBytes(1 << 20))) {
			upstream.chat(UpstreamDouble.fixture("vllm/chat-text"));
			HttpResponse<String> chunked = GatewayClient.HTTP
					.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/chat/completions"))
							.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
									GatewayClient.request("m", false).getBytes(StandardCharsets.UTF_8))))
							.build(), HttpResponse.BodyHandlers.ofString());

			assertThat(chunked.statusCode()).isEqualTo(200);
			assertThat(upstream.chatRequest().text()).isEqualTo(GatewayClient.request("m", false));
		}
	}

	@Test
	@DisplayName("headers over the limit are 431, counted as name, \": \", value and CRLF per line")
	void headerLimit() {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = start(upstream, SMALL.withMaxBodyBytes(1 << 20))) {
			upstream.chat(UpstreamDouble.fixture("vllm/chat-text"));
			GatewayClient.Answer over = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false), "X-Pad", "p".repeat(600));
			GatewayClient.Answer under = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false), "X-Pad", "p".repeat(100));

			assertThat(over.status()).isEqualTo(431);
			assertThat(over.json().at("/error/type").asText()).isEqualTo("RequestHeaderFieldsTooLargeError");
			assertThat(over.json().at("/error/message").asText()).endsWith("bytes, over the gateway's limit of 600 bytes");
			assertThat(under.status()).isEqualTo(200);
			assertThat(upstream.received("/v1/chat/completions")).hasSize(1);
		}
	}

	@Test
	@DisplayName("an upstream that never answers is a 504 after the upstream timeout (fault rule F02 checks the cancel)")
	void upstreamTimeout() {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = start(upstream, SMALL.withMaxBodyBytes(1 << 20))) {
			upstream.chat((exchange, request) -> {
				try {
					Thread.sleep(10_000);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
			long started = System.nanoTime();
			GatewayClient.Answer answer = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", false));
			long millis = (System.nanoTime() - started) / 1_000_000;

			assertThat(answer.status()).isEqualTo(504);
			assertThat(answer.body()).isEqualTo("{\"error\":{\"message\":\"upstream did not answer within 500 ms (the gateway's upstream "
					+ "timeout)\",\"type\":\"GatewayTimeoutError\",\"param\":null,\"code\":504}}");
			assertThat(millis).isBetween(400L, 5000L);
		}
	}

	@Test
	@DisplayName("a stream whose upstream goes silent ends with a 504 frame, the record and [DONE]; a slow client is no stall")
	void silentStreamEndsWithFrame() throws Exception {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = start(upstream, SMALL.withMaxBodyBytes(1 << 20))) {
			upstream.chat((exchange, request) -> {
				OutputStream out = UpstreamDouble.startStream(exchange);
				UpstreamDouble.frame(out,
						"{\"id\":\"s\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}");
				try {
					Thread.sleep(10_000);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			});
			GatewayClient.Answer answer = GatewayClient.chat(gateway.baseUrl(), GatewayClient.request("m", true));

			assertThat(answer.data()).containsExactly(
					"{\"id\":\"s\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}",
					"{\"error\":{\"message\":\"upstream sent nothing for 500 ms (the gateway's upstream timeout)\",\"type\":\"GatewayTimeoutError\",\"code\":504}}",
					"{\"calls\":[],\"result_admissions\":[]}", "[DONE]");
		}
	}

	@Test
	@DisplayName("binds only the address it is given: 127.0.0.2 answers there and refuses 127.0.0.1")
	void bindsOnlyItsAddress() throws Exception {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = ReferenceGateway.builder()
						.front(front)
						.upstream(upstream.v1())
						.bind(InetAddress.getByName("127.0.0.2"))
						.build()
						.start()) {
			assertThat(gateway.baseUrl()).hasToString("http://127.0.0.2:" + gateway.port() + "/v1");
			assertThat(GatewayClient.get(URI.create("http://127.0.0.2:" + gateway.port() + "/healthz")).status()).isEqualTo(200);
			assertThat(connects("127.0.0.1", gateway.port())).isFalse();
		}
	}

	@Test
	@DisplayName("by default binds loopback only")
	void loopbackByDefault() {
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway gateway = ReferenceGateway.builder().front(front).upstream(upstream.v1()).build().start()) {
			assertThat(gateway.baseUrl()).hasToString("http://127.0.0.1:" + gateway.port() + "/v1");
			assertThat(connects("127.0.0.2", gateway.port())).isFalse();
		}
	}

	@Test
	@DisplayName("request bodies are written to a log only when asked")
	void bodiesLoggedOnlyWhenAsked() {
		ByteArrayOutputStream log = new ByteArrayOutputStream();
		try (UpstreamDouble upstream = UpstreamDouble.start();
				ReferenceGateway quiet = ReferenceGateway.builder().front(front).upstream(upstream.v1()).build().start();
				ReferenceGateway logging = ReferenceGateway.builder()
						.front(front)
						.upstream(upstream.v1())
						.logBodies(new PrintStream(log, true, StandardCharsets.UTF_8))
						.build()
						.start()) {
			upstream.chat(UpstreamDouble.fixture("vllm/chat-text"));
			String body = GatewayClient.request("m", false).replace("check the hosts file", "canary-body-7f3a");
			GatewayClient.chat(quiet.baseUrl(), body);
			assertThat(log.toString(StandardCharsets.UTF_8)).isEmpty();

			GatewayClient.chat(logging.baseUrl(), body);
			assertThat(log.toString(StandardCharsets.UTF_8)).isEqualTo("request POST /v1/chat/completions " + body + "\n");
		}
	}

	private ReferenceGateway start(UpstreamDouble upstream, GatewayLimits limits) {
		return ReferenceGateway.builder()
				.front(front)
				.upstream(upstream.v1())
				.policy(PolicyLoader.kitConvention())
				.engine(Dialect.VLLM)
				.limits(limits)
				.build()
				.start();
	}

	private static boolean connects(String host, int port) {
		try (Socket socket = new Socket(host, port)) {
			return true;
		}
		catch (ConnectException refused) {
			return false;
		}
		catch (IOException e) {
			return false;
		}
	}
}
