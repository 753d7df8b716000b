package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.fakbattery.gateway.GatewayClient.Answer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code java -jar target/reference-gateway.jar} as a process (failsafe, after package). */
@DisplayName("the runnable jar")
class MainJarTests {

	private static final Pattern LISTENING = Pattern.compile("reference gateway listening on (http://127\\.0\\.0\\.1:\\d+/v1) .*");

	private final List<Process> processes = new ArrayList<>();

	@TempDir
	Path dir;

	@AfterEach
	void stopProcesses() throws InterruptedException {
		for (Process process : processes) {
			process.destroy();
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
		}
	}

	/**
	 * The JVM's start and its first line get 120 s: under a load average of 17 to 20 on the 2-core machine (other builds
	 * beside this one, 2026-12-02) the 65 MB jar once took more than 30 s to print it.
	 */
	@Test
	@Timeout(180)
	@DisplayName("java -jar with --upstream/--port/--policy serves the adjudicating proxy")
	void serves() throws Exception {
		Path policy = Files.writeString(dir.resolve("policy.yaml"), "rules:\n  - tool: \"allow_*\"\n    verdict: allow\n");
		try (UpstreamDouble upstream = UpstreamDouble.start()) {
			upstream.chat(UpstreamDouble.fixture("kit/vllm/tool-call-mixed"));
			Process process = start("--upstream", upstream.v1().toString(), "--port", "0", "--policy", policy.toString());
			BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			String line = CompletableFuture.supplyAsync(() -> readLine(stdout)).get(120, TimeUnit.SECONDS);
			Matcher matcher = LISTENING.matcher(line);
			assertThat(matcher.matches()).as("first line: %s", line).isTrue();
			URI base = URI.create(matcher.group(1));

			Answer health = GatewayClient.get(URI.create(base.toString().replace("/v1", "/healthz")));
			Answer chat = GatewayClient.chat(base, GatewayClient.request("m", false));

			assertThat(health.body()).isEqualTo("{\"ok\":true,\"engine\":\"vllm\",\"upstream\":\"" + upstream.v1() + "\"}");
			assertThat(chat.json().at("/choices/0/message/tool_calls")).hasSize(1);
			assertThat(chat.json().at("/adjudication/calls")).hasSize(3);
		}
	}

	@Test
	@Timeout(180)
	@DisplayName("a bad flag exits 2 with the error and the usage on stderr")
	void badFlag() throws Exception {
		Process process = start("--upstream", "http://127.0.0.1:1/v1", "--port", "x");

		assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isEqualTo(2);
		assertThat(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
				.isEqualTo("reference-gateway: --port [x] must be a number 0-65535\n" + MainArguments.USAGE);
	}

	private Process start(String... args) throws IOException {
		String jar = System.getProperty("reference-gateway.jar", "target/reference-gateway.jar");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).start();
		processes.add(process);
		return process;
	}

	private static String readLine(BufferedReader reader) {
		try {
			String line = reader.readLine();
			return line == null ? "<no output>" : line;
		}
		catch (IOException e) {
			return "<" + e.getMessage() + ">";
		}
	}
}
