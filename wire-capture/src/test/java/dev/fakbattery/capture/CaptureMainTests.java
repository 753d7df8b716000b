package dev.fakbattery.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.engine.EngineDouble;
import dev.fakbattery.engine.TimingModel;
import dev.fakbattery.wire.ChatChunk;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SseEvent;
import dev.fakbattery.wire.SseReader;
import dev.fakbattery.wire.WireJson;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("wire-capture: a live engine's answers to the kit's prompts, with provenance")
class CaptureMainTests {

	@TempDir
	Path out;

	private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

	private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = Dialect.class, names = { "VLLM", "SGLANG" })
	@DisplayName("captures every prompt from the engine double, whole and streamed, each with its provenance sidecar")
	void capturesFromTheEngineDouble(Dialect dialect) throws Exception {
		try (EngineDouble engine = EngineDouble.builder().dialect(dialect).timing(TimingModel.instant()).start()) {
			int status = run("--base-url", engine.baseUrl(), "--model", engine.model(), "--engine", dialect.id(), "--out", out.toString(),
					"--parser", "hermes");

			assertThat(status).as(stderr.toString(StandardCharsets.UTF_8)).isZero();
			Path folder = out.resolve(dialect.id());
			for (CapturePrompts.Prompt asked : CapturePrompts.all()) {
				String prompt = asked.name();
				ObjectNode provenance = WireJson.readObject(Files.readString(folder.resolve(prompt + ".provenance.json")));
				assertThat(provenance.path("engine").asText()).isEqualTo(dialect.id());
				assertThat(provenance.path("engine_version").asText()).endsWith("+engine-double");
				assertThat(provenance.path("model").asText()).isEqualTo(engine.model());
				assertThat(provenance.path("tool_parser").asText()).isEqualTo("hermes");
				assertThat(provenance.path("captured_at").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
				assertThat(provenance.path("command").asText()).startsWith("java -jar wire-capture.jar --base-url " + engine.baseUrl());
				if (asked.refused()) {
					assertThat(provenance.at("/answers/non-stream/http_status").asInt()).isEqualTo(400);
					assertThat(provenance.at("/answers/stream/http_status").asInt()).isEqualTo(400);
					assertThat(WireJson.readObject(Files.readString(folder.resolve(prompt + ".sse"))).toString()).contains("tool_choice");
				}
				else {
					assertThat(provenance.at("/answers/stream/http_status").asInt()).isEqualTo(200);
					assertThat(Files.readString(folder.resolve(prompt + ".sse"))).endsWith("data: [DONE]\n\n");
				}
			}
			assertThat(WireJson.readObject(Files.readString(folder.resolve("tool-call.json")))
					.at("/choices/0/message/tool_calls/0/function/name")
					.asText()).isEqualTo("read_file");
			assertThat(Files.exists(folder.resolve("tool-call-continuous-usage.json"))).isFalse();
			assertThat(chunks(folder.resolve("tool-call-continuous-usage.sse")).stream()
					.filter(c -> c.choices().stream().anyMatch(ch -> !ch.toolCalls().isEmpty())))
					.isNotEmpty()
					.allSatisfy(chunk -> assertThat(chunk.usage()).isPresent());
			assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("captured " + dialect.id() + "/tool-call: non-stream 200 (")
					.contains("captured " + dialect.id() + "/error-invalid-tool-choice: non-stream 400 (")
					.contains("replay with: ./mvnw verify -pl conformance-tests -am -Dwire.captures=" + out.toAbsolutePath());
		}
	}

	@Test
	@DisplayName("the prompt an engine must refuse expects a 4xx, every other prompt a 200")
	void expectedStatuses() {
		assertThat(new CapturePrompts.Prompt("p", WireJson.readObject("{}"), true, true).expects(200)).isFalse();
		assertThat(new CapturePrompts.Prompt("p", WireJson.readObject("{}"), true, true).expects(400)).isTrue();
		assertThat(new CapturePrompts.Prompt("p", WireJson.readObject("{}"), true).expects(400)).isFalse();
	}

	@Test
	@DisplayName("a bad command line names the flag, prints the usage and exits 2")
	void badCommandLine() throws Exception {
		int status = run("--base-url", "http://127.0.0.1:1/api", "--model", "m", "--engine", "vllm", "--out", out.toString());

		assertThat(status).isEqualTo(2);
		assertThat(stderr.toString(StandardCharsets.UTF_8))
				.startsWith("wire-capture: --base-url [http://127.0.0.1:1/api] must be an http(s) URL ending in /v1\n")
				.contains(CaptureArguments.USAGE);
	}

	@Test
	@DisplayName("an engine that cannot be reached exits 1 and says so")
	void unreachable() throws Exception {
		int status = run("--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--engine", "sglang", "--out", out.toString(), "--prompts",
				"text");

		assertThat(status).isEqualTo(1);
		assertThat(stderr.toString(StandardCharsets.UTF_8))
				.startsWith("wire-capture: http://127.0.0.1:1/v1 could not be reached or written: ");
	}

	private int run(String... args) throws InterruptedException {
		return CaptureMain.run(args, new PrintStream(stdout, true, StandardCharsets.UTF_8),
				new PrintStream(stderr, true, StandardCharsets.UTF_8));
	}

	private static List<ChatChunk> chunks(Path sse) throws IOException {
		try (SseReader reader = new SseReader(Files.newInputStream(sse))) {
			List<ChatChunk> chunks = new java.util.ArrayList<>();
			for (var event = reader.next(); event.isPresent(); event = reader.next()) {
				if (event.get().kind() == SseEvent.Kind.DATA) {
					chunks.add(event.get().chunk());
				}
			}
			return chunks;
		}
	}
}
