package dev.fakbattery.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("wire-capture writes no capture that holds the API key, in any form")
class CaptureSecretTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	@TempDir
	Path out;

	private HttpServer engine;

	private volatile String answer = "{}";

	@BeforeEach
	void startEcho() throws IOException {
		engine = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		engine.createContext("/", exchange -> {
			byte[] body = exchange.getRequestURI().getPath().endsWith("/chat/completions")
					? answer.getBytes(StandardCharsets.UTF_8)
					: new byte[0];
			exchange.sendResponseHeaders(exchange.getRequestURI().getPath().endsWith("/chat/completions") ? 200 : 404,
					body.length == 0 ? -1 : body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		engine.start();
	}

	@AfterEach
	void stopEcho() {
		engine.stop(0);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#forms")
	@DisplayName("an engine that echoes the key in a form: the capture is refused, named, and nothing written holds the key")
	void echoedKeyIsRefused(String name, String expectedForm, UnaryOperator<String> encode) throws IOException {
		answer = "{\"echo\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(encode.apply(CanaryForms.KEY)) + "}";

		assertThatThrownBy(() -> capturer().captureAll(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("capture " + out.resolve("vllm"))
				.hasMessageContaining(" would contain the value of the environment variable CANARY_KEY (--api-key-env), ")
				.hasMessageEndingWith("; refused to write it")
				.hasMessageNotContaining(CanaryForms.KEY);
		assertThat(written()).allSatisfy(file -> assertThat(GUARD.find(Files.readAllBytes(file))).as(name + " in " + file).isEmpty());
	}

	@Test
	@DisplayName("self-test: an engine that echoes nothing secret is captured, so the refusals above are the guard's")
	void cleanAnswersAreWritten() throws Exception {
		answer = "{\"choices\":[]}";

		capturer().captureAll(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

		assertThat(written()).isNotEmpty().allSatisfy(file -> assertThat(GUARD.find(Files.readAllBytes(file))).isEmpty());
	}

	private Capturer capturer() {
		CaptureArguments arguments = CaptureArguments.parse(new String[]{ "--base-url", "http://127.0.0.1:" + engine.getAddress().getPort()
				+ "/v1",
			"--model", "m", "--engine", "vllm", "--out", out.toString(), "--api-key-env", "CANARY_KEY" });
		return new Capturer(arguments, "java -jar wire-capture.jar", Clock.systemUTC(), variable -> CanaryForms.KEY);
	}

	private List<Path> written() throws IOException {
		try (Stream<Path> files = Files.walk(out)) {
			return files.filter(Files::isRegularFile).toList();
		}
	}
}
