package dev.fakbattery.core.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.core.process.Squatter;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SecretGuard;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("GatewayLauncher: gateway.url, gateway.cmd")
// waits on processes and servers it starts: beside the other classes (junit-platform.properties)
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class GatewayLauncherTests {

	private static final URI UPSTREAM = URI.create("http://127.0.0.1:9/v1");

	@TempDir
	Path dir;

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	@DisplayName("gateway.url is used as it is and never stopped")
	void externalGateway() {
		try (GatewayUnderTest gateway = GatewayLauncher.resolve(config(Map.of("gateway.url", "http://127.0.0.1:8080/v1/")), UPSTREAM, "m",
				Dialect.VLLM, dir)) {
			assertThat(gateway.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/v1"));
			assertThat(gateway.description()).isEqualTo("gateway.url http://127.0.0.1:8080/v1");
			assertThat(gateway.declaresAdjudicationRecord()).isFalse();
		}
	}

	@Test
	@DisplayName("the template's placeholders are filled in")
	void rendersTemplate() {
		assertThat(ProcessGateway.render("fak serve --addr 127.0.0.1:{port} --provider openai --base-url {upstream} --model {model}",
				8123, UPSTREAM, "glm-5.2", Dialect.VLLM))
				.isEqualTo("fak serve --addr 127.0.0.1:8123 --provider openai --base-url http://127.0.0.1:9/v1 --model glm-5.2");
		assertThat(GatewayLauncher.command("java -jar reference-gateway.jar --upstream {upstream} --port {port} --engine {engine}",
				8124, UPSTREAM, "m", Dialect.LLAMACPP))
				.isEqualTo("java -jar reference-gateway.jar --upstream http://127.0.0.1:9/v1 --port 8124 --engine llamacpp");
	}

	@Test
	@DisplayName("a gateway.cmd that answers only requests with its routing headers (and a bare 400 to an h2c upgrade) is healthy when the health probe sends gateway.header.*")
	void healthProbeSendsTheGatewayHeaders() throws Exception {
		Path script = dir.resolve("routed.py");
		Files.writeString(script, """
				import sys
				from http.server import BaseHTTPRequestHandler, HTTPServer
				class H(BaseHTTPRequestHandler):
				    def do_GET(self):
				        routed = self.headers.get('x-route') == sys.argv[2] and self.headers.get('Upgrade') is None
				        self.send_response(200 if routed and self.path == '/v1/models' else 400)
				        self.send_header('Content-Length', '0')
				        self.end_headers()
				HTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()
				""");
		String cmd = "exec python3 " + script + " {port} " + UPSTREAM;
		GatewayUnderTest gateway = GatewayLauncher.resolve(config(Map.of("gateway.cmd", cmd, "gateway.headers", "x-route: {upstream}")),
				UPSTREAM, "m", Dialect.VLLM, dir.resolve("logs"));
		gateway.close();
		assertThatThrownBy(() -> GatewayLauncher.resolve(config(Map.of("gateway.cmd", cmd, "gateway.start.timeout.sec", "2")), UPSTREAM,
				"m", Dialect.VLLM, dir.resolve("logs"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("did not answer");
	}

	@Test
	@DisplayName("gateway.cmd is started, health-checked, logged and stopped")
	void startsAndStopsACommand() throws Exception {
		Path docroot = Files.createDirectories(dir.resolve("www"));
		Files.writeString(docroot.resolve("healthz"), "ok");
		String cmd = "cd " + docroot + " && echo starting {model} for {upstream} && exec python3 -m http.server {port} --bind 127.0.0.1";
		GatewayUnderTest gateway = GatewayLauncher.resolve(config(Map.of("gateway.cmd", cmd)), UPSTREAM, "m1", Dialect.VLLM,
				dir.resolve("logs"));
		String root = gateway.baseUrl().toString().replace("/v1", "");
		HttpClient client = HttpClient.newHttpClient();
		assertThat(client.send(HttpRequest.newBuilder(URI.create(root + "/healthz")).build(), HttpResponse.BodyHandlers.ofString()).body())
				.isEqualTo("ok");
		assertThat(gateway.log()).isPresent();
		assertThat(Files.readString(gateway.log().get())).contains("starting m1 for http://127.0.0.1:9/v1");
		gateway.close();
		assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(URI.create(root + "/healthz")).timeout(Duration.ofSeconds(2)).build(),
				HttpResponse.BodyHandlers.ofString())).isInstanceOf(java.io.IOException.class);
	}

	@Test
	@DisplayName("a command that exits early fails naming the command, the status and the log")
	void exitsEarly() {
		String cmd = "echo port {port} is not for me; exit 3";
		assertThatThrownBy(() -> GatewayLauncher.resolve(config(Map.of("gateway.cmd", cmd)), UPSTREAM, "m", Dialect.VLLM, dir))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageStartingWith("gateway.cmd [echo port ")
				.hasMessageContaining("] exited with status 3 before answering its health check; log " + dir.resolve("gateway-"))
				.hasMessageEndingWith("is not for me");
	}

	@Test
	@DisplayName("a command that never answers fails after gateway.start.timeout.sec and is stopped")
	void timesOut() {
		String cmd = "echo listening on {port}; exec sleep 30";
		assertThatThrownBy(() -> GatewayLauncher.resolve(config(Map.of("gateway.cmd", cmd, "gateway.start.timeout.sec", "1")), UPSTREAM,
				"m", Dialect.VLLM, dir))
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("/healthz or http://127.0.0.1:")
				.hasMessageContaining("/v1/models within 1 s; log ");
	}

	@Test
	@DisplayName("gateway.cmd's port taken by another server before the gateway starts: the kit moves it to a new port and never talks to the squatter")
	void squattedPortIsNeverJudged() throws Exception {
		Path docroot = Files.createDirectories(dir.resolve("www"));
		Files.writeString(docroot.resolve("healthz"), "ok");
		java.util.List<Squatter> squatters = new java.util.ArrayList<>();
		java.util.function.IntSupplier ports = () -> {
			int port = ManagedProcess.freePort();
			if (squatters.isEmpty()) {
				squatters.add(Squatter.on(port));
			}
			return port;
		};
		try (ProcessGateway gateway = ProcessGateway.start(Squatter.fileServer(docroot), UPSTREAM, "m", Dialect.VLLM,
				dir, Duration.ofSeconds(60), false, ports, SecretGuard.none())) {
			Squatter squatter = squatters.get(0);
			assertThat(gateway.baseUrl().getPort()).isNotEqualTo(squatter.port());
			assertThat(squatter.requests()).as("requests the squatter was sent").isZero();
		}
		finally {
			squatters.forEach(Squatter::close);
		}
		Squatter always = Squatter.on(ManagedProcess.freePort());
		try {
			assertThatThrownBy(
					() -> ProcessGateway.start("exec sleep 30 # {port}", UPSTREAM, "m", Dialect.VLLM, dir, Duration.ofSeconds(60),
							false, always::port, SecretGuard.none()).close())
					.isInstanceOf(IllegalStateException.class)
					.hasMessageStartingWith("gateway.cmd could not get a port of its own")
					.hasMessageContaining("held by pid " + ProcessHandle.current().pid());
			assertThat(always.requests()).as("requests the squatter was sent").isZero();
		}
		finally {
			always.close();
		}
	}
}
