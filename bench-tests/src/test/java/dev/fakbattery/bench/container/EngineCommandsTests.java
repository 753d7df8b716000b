package dev.fakbattery.bench.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.RungRecorder;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engine.cmd against fake engines: {@code python3 -m http.server} serving files named like the
 * health endpoints, and commands that exit or never listen.
 */
@DisplayName("engine.cmd: started, health-checked, logged, shared, stopped")
class EngineCommandsTests {

	@TempDir
	Path dir;

	private final EngineCommands commands = EngineCommands.create();

	private final HttpClient client = HttpClient.newHttpClient();

	@AfterEach
	void stop() {
		commands.close();
	}

	private HarnessConfig config(String command, String... extra) {
		return Configs.of(Configs.concat(new String[]{ "engine.cmd", command, "experiments.dir", dir.toString() }, extra));
	}

	/** A fake engine serving {@code files} (paths under the server root) from a folder. */
	private String fakeEngine(String... files) throws IOException {
		Path www = Files.createDirectories(dir.resolve("www"));
		for (String file : files) {
			Files.createDirectories(www.resolve(file).getParent());
			Files.writeString(www.resolve(file), "{\"status\":\"ok\"}");
		}
		return "cd " + www + " && echo serving {model} && exec python3 -m http.server {port} --bind 127.0.0.1";
	}

	private int status(URI url) throws Exception {
		return client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding())
				.statusCode();
	}

	@Test
	@DisplayName("is started on a free port, healthy on /health, logged, reused by the next rung and stopped on close")
	void lifecycle() throws Exception {
		HarnessConfig config = config(fakeEngine("health"), "model", "tiny");
		URI base = commands.engineUrl(config).orElseThrow();
		assertThat(base.toString()).matches("http://127\\.0\\.0\\.1:\\d+/v1");
		assertThat(commands.engineUrl(config)).contains(base);
		assertThat(status(URI.create(base.toString().replace("/v1", "/health")))).isEqualTo(200);
		int port = base.getPort();
		Path log = dir.resolve("logs").resolve("engine-" + port + ".log");
		assertThat(Files.readString(log)).contains("serving tiny");
		assertThat(commands.description()).hasValueSatisfying(d -> assertThat(d).startsWith("engine.cmd [cd ")
				.contains("exec python3 -m http.server " + port + " --bind 127.0.0.1] (log " + log + ")"));
		commands.close();
		assertThatThrownBy(() -> status(URI.create(base + "/models"))).isInstanceOf(IOException.class);
		assertThat(commands.description()).isEmpty();
	}

	@Test
	@DisplayName("an engine without /health is healthy once /v1/models answers")
	void modelsFallback() throws Exception {
		URI base = commands.engineUrl(config(fakeEngine("v1/models"), "model", "m")).orElseThrow();
		assertThat(status(URI.create(base + "/models"))).isEqualTo(200);
	}

	@Test
	@DisplayName("a command that never becomes healthy fails naming the command, the probes, the timeout and the log; the next rung fails at once")
	void neverHealthy() {
		HarnessConfig config = config("echo listening on {port}; exec sleep 30", "engine.cmd.timeout.sec", "1");
		assertThatThrownBy(() -> commands.engineUrl(config)).isInstanceOf(EngineUnavailableError.class)
				.hasMessageMatching("(?s)engine\\.cmd \\[echo listening on (\\d+); exec sleep 30\\] did not answer "
						+ "http://127\\.0\\.0\\.1:\\1/health or http://127\\.0\\.0\\.1:\\1/v1/models within 1 s; log "
						+ java.util.regex.Pattern.quote(dir.resolve("logs").toString()) + "/engine-\\1\\.log:\n"
						+ "listening on \\1\nFix: run the command by hand and read its log, or raise -Dengine\\.cmd\\.timeout\\.sec \\(now 1\\)\\.");
		long start = System.nanoTime();
		assertThatThrownBy(() -> commands.engineUrl(config)).isInstanceOf(EngineUnavailableError.class)
				.hasMessageContaining("] did not answer http://127.0.0.1:");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	@DisplayName("a command that exits fails naming its exit status and the log's last lines")
	void exits() {
		assertThatThrownBy(() -> commands.engineUrl(config("echo no model file for port {port} >&2; exit 7")))
				.isInstanceOf(EngineUnavailableError.class)
				.hasMessageMatching("(?s)engine\\.cmd \\[echo no model file for port \\d+ >&2; exit 7\\] exited with status 7 before "
						+ "answering its health check; log .*/engine-\\d+\\.log:\nno model file for port \\d+\nFix: .*");
	}

	@Test
	@DisplayName("a template without {port} is a misconfiguration naming the fix")
	void noPort() {
		assertThatThrownBy(() -> commands.engineUrl(config("llama-server -m tiny.gguf"))).isInstanceOf(ConfigurationException.class)
				.hasMessage("engine.cmd [llama-server -m tiny.gguf] has no {port}: the harness picks a free loopback port and the engine "
						+ "must listen on it. Fix: add --port {port} (and --host 127.0.0.1) to -Dengine.cmd.");
	}

	@Test
	@DisplayName("{model} without model is a misconfiguration naming the fix")
	void noModel() {
		assertThatThrownBy(() -> commands.engineUrl(config("llama-server --port {port} -a {model}")))
				.isInstanceOf(ConfigurationException.class)
				.hasMessage("engine.cmd [llama-server --port {port} -a {model}] uses {model} but model is not set. Fix: pass "
						+ "-Dmodel=<served model name>.");
	}

	@Test
	@DisplayName("node target: base.url wins over engine.cmd, and engine.cmd over engine.image")
	void nodeTargetOrder() throws Exception {
		FakeLauncher launcher = FakeLauncher.healthy();
		try (EngineContainers containers = EngineContainers.create(() -> true, launcher, name -> null)) {
			String engine = fakeEngine("health");
			RungRecorder explicit = new RungRecorder(ArtifactId.PREFLIGHT,
					config(engine, "base.url", "http://10.0.0.7:8000/v1", "engine.image",
							Configs.VLLM_IMAGE, "model", "qwen"));
			assertThat(NodeTarget.baseUrl(explicit, commands, containers)).contains(URI.create("http://10.0.0.7:8000/v1"));
			assertThat(commands.description()).isEmpty();
			RungRecorder started = new RungRecorder(ArtifactId.PREFLIGHT,
					config(engine, "engine.image", Configs.VLLM_IMAGE, "model", "qwen"));
			URI base = NodeTarget.baseUrl(started, commands, containers).orElseThrow();
			assertThat(base.getHost()).isEqualTo("127.0.0.1");
			assertThat(launcher.started).isEmpty();
			assertThat(started.pendings()).isEmpty();
		}
	}
}
