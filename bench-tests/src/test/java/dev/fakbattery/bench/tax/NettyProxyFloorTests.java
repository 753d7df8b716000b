package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.core.load.ChatPayload;
import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the Netty proxy floor of the gateway cost bench")
class NettyProxyFloorTests {

	private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@Test
	@DisplayName("relays non-stream chat completions to the engine and its answers back, on kept-alive connections")
	void relays() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				NettyProxyFloor floor = new NettyProxyFloor(URI.create(engine.baseUrl()), 0)) {
			for (int i = 0; i < 3; i++) {
				HttpResponse<String> answer = post(floor.baseUrl(), ChatPayload.nonStreaming(engine.model(), "hi", 8).body());

				assertThat(answer.statusCode()).isEqualTo(200);
				assertThat(WireJson.readObject(answer.body()).path("choices").path(0).path("message").path("content").asText())
						.isNotEmpty();
			}
		}
	}

	@Test
	@DisplayName("answers requests written at once on one connection, in order")
	void pipelined() throws Exception {
		try (EngineDouble engine = EngineDouble.builder().timing(TimingModel.instant()).start();
				NettyProxyFloor floor = new NettyProxyFloor(URI.create(engine.baseUrl()), 0);
				Socket socket = new Socket("127.0.0.1", URI.create(floor.baseUrl()).getPort())) {
			String one = request(ChatPayload.nonStreaming(engine.model(), "hi", 8).body());
			OutputStream out = socket.getOutputStream();
			out.write((one + one + one).getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			socket.setSoTimeout(10_000);
			InputStream in = socket.getInputStream();
			StringBuilder read = new StringBuilder();
			byte[] buffer = new byte[8192];
			while (count(read.toString(), "\"choices\"") < 3) {
				int n = in.read(buffer);
				assertThat(n).as("the floor closed the connection after reading %s", read).isPositive();
				read.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
			}

			assertThat(count(read.toString(), "HTTP/1.1 200 OK")).isEqualTo(3);
		}
	}

	@Test
	@DisplayName("an engine that cannot be reached gets the client a 502 with an error object")
	void unreachable() throws Exception {
		int closed;
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			closed = socket.getLocalPort();
		}
		try (NettyProxyFloor floor = new NettyProxyFloor(URI.create("http://127.0.0.1:" + closed + "/v1"), 0)) {
			HttpResponse<String> answer = post(floor.baseUrl(), ChatPayload.nonStreaming("m", "hi", 8).body());

			assertThat(answer.statusCode()).isEqualTo(502);
			assertThat(WireJson.readObject(answer.body()).path("error").path("message").asText()).isEqualTo("upstream unreachable");
		}
	}

	@Test
	@DisplayName("an engine answer that is not JSON gets the client a 502, never the engine's status")
	void notJson() throws Exception {
		HttpServer engine = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		engine.createContext("/", exchange -> {
			exchange.getRequestBody().readAllBytes();
			byte[] body = "<html>busy</html>".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		engine.start();
		try (NettyProxyFloor floor = new NettyProxyFloor(URI.create("http://127.0.0.1:" + engine.getAddress().getPort() + "/v1"), 0)) {
			HttpResponse<String> answer = post(floor.baseUrl(), ChatPayload.nonStreaming("m", "hi", 8).body());

			assertThat(answer.statusCode()).isEqualTo(502);
			assertThat(WireJson.readObject(answer.body()).path("error").path("message").asText()).isEqualTo("upstream answer is not JSON");
		}
		finally {
			engine.stop(0);
		}
	}

	private HttpResponse<String> post(String base, byte[] body) throws Exception {
		return client.send(HttpRequest.newBuilder(URI.create(base + "/chat/completions"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofByteArray(body))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String request(byte[] body) {
		return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
				+ body.length + "\r\n\r\n" + new String(body, StandardCharsets.ISO_8859_1);
	}

	private static int count(String text, String what) {
		int n = 0;
		for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
			n++;
		}
		return n;
	}
}
