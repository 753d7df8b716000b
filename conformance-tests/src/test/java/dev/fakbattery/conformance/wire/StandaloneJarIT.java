package dev.fakbattery.conformance.wire;

import static dev.fakbattery.conformance.wire.BrokenGateways.FAITHFUL;
import static dev.fakbattery.conformance.wire.BrokenGateways.requests;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The standalone jar as a user runs it: {@code java -jar conformance-tests-VERSION-standalone.jar --gateway-url ...}
 * in its own process, against a gateway already running in front of the kit's upstream port. Run by failsafe after
 * {@code package} built the jar ({@code kit.standalone.jar}).
 */
@Tag("wire")
@DisplayName("standalone jar: java -jar against a running gateway, exit code and JUnit XML")
@Execution(ExecutionMode.CONCURRENT) // three jars with their own gateways, ports and report folders: they mostly start JVMs
class StandaloneJarIT {

	private static final Path REPORTS = Path.of("target", "standalone-jar-it");

	@Test
	@DisplayName("against the reference gateway: exit 0 and JUnit XML with the rules asked for run and none failed")
	void referenceGatewayPasses() throws Exception {
		int upstreamPort = ManagedProcess.freePort();
		try (GatewayUnderTest gateway = GatewayLauncher.embedded(upstream(upstreamPort), Dialect.VLLM)) {
			Path reports = REPORTS.resolve("reference");
			Run run = kit(gateway, upstreamPort, reports, "--declares-record", "--only", "W01,W02,W03,W04,W09,W13,W17,W19,W20,W21");

			assertThat(run.exit()).as(run.output()).isZero();
			assertThat(run.output()).contains("kit outcomes: ").contains(" failed, 0 pending, 0 not judged, ");
			String xml = Files.readString(reports.resolve("TEST-junit-jupiter.xml"));
			assertThat(xml).contains("tests=\"20\"", "failures=\"0\"", "errors=\"0\"", "W01 model alias", "W21 chunks and bodies");
		}
	}

	@Test
	@DisplayName("--rules client against the reference gateway: exit 0, the client rules run (LangChain4j from the jar, node clients from target/node-clients) and none failed")
	void clientRulesPass() throws Exception {
		int upstreamPort = ManagedProcess.freePort();
		try (GatewayUnderTest gateway = GatewayLauncher.embedded(upstream(upstreamPort), Dialect.VLLM)) {
			Path reports = REPORTS.resolve("client");
			Run run = kit(gateway, upstreamPort, reports, "--rules", "client", "--config",
					"kit.node.dir=" + Path.of("target", "node-clients").toAbsolutePath());

			assertThat(run.exit()).as(run.output()).isZero();
			String xml = Files.readString(reports.resolve("TEST-junit-jupiter.xml"));
			assertThat(xml).contains("tests=\"8\"", "failures=\"0\"", "errors=\"0\"", "C01 LangChain4j", "C04 LangChain.js");
		}
	}

	@Test
	@DisplayName("against a gateway that rewrites the client's model alias: exit 1, and the JUnit XML names W01 and why")
	void brokenGatewayFails() throws Exception {
		int upstreamPort = ManagedProcess.freePort();
		try (GatewayUnderTest gateway = BrokenGateways.broken("broken: rewrites the model alias", FAITHFUL,
				requests(body -> body.replace(WireConformanceKit.ALIAS, "served-default")), upstream(upstreamPort), Dialect.VLLM)) {
			Path reports = REPORTS.resolve("broken");
			Run run = kit(gateway, upstreamPort, reports, "--only", "W01,W15");

			assertThat(run.exit()).as(run.output()).isEqualTo(1);
			String xml = Files.readString(reports.resolve("TEST-junit-jupiter.xml"));
			assertThat(xml).contains("tests=\"4\"", "failures=\"2\"", "W01 [vllm non-stream] on gateway.url " + gateway.baseUrl()
					+ ": expected upstream model [" + WireConformanceKit.ALIAS + "], observed [served-default]");
			assertThat(xml).as("test cases named by rule and target, not by method and index")
					.contains(" name=\"W01 model alias reaches upstream, engine model comes back on every chunk [vllm stream]\"")
					.doesNotContain(" name=\"required_W01");
			assertThat(run.output()).as("the rule whose runs all failed is marked failed, not ✔")
					.contains("✘ W01 model alias reaches upstream, engine model comes back on every chunk: 2 runs, 2 failed")
					.contains("✔ W15 X-Request-Id passed to the upstream: 2 runs, 2 passed");
		}
	}

	private static Run kit(GatewayUnderTest gateway, int upstreamPort, Path reports, String... more)
			throws IOException, InterruptedException {
		String jar = System.getProperty("kit.standalone.jar");
		assertThat(jar).as("kit.standalone.jar, set by failsafe in conformance-tests/pom.xml").isNotNull();
		assertThat(Path.of(jar)).as("the standalone jar (built by package)").isRegularFile();
		List<String> command = new ArrayList<>(ChildJava.command());
		command.addAll(List.of("-jar", jar, "--gateway-url", gateway.baseUrl().toString(), "--engine", "vllm", "--upstream-port",
				String.valueOf(upstreamPort),
				"--reports-dir", reports.toString()));
		command.addAll(List.of(more));
		Path log = Files.createDirectories(REPORTS).resolve(reports.getFileName() + ".log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		if (!process.waitFor(4, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new AssertionError("the standalone jar ran longer than 4 minutes: " + command + "\n" + Files.readString(log));
		}
		return new Run(process.exitValue(), Files.readString(log));
	}

	private static URI upstream(int port) {
		return URI.create("http://127.0.0.1:" + port + "/v1");
	}

	private record Run(int exit, String output) {
	}

}
