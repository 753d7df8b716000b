package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.fakbattery.conformance.rules.RuleOutcome;
import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.ConfigurationException;
import dev.fakbattery.core.HarnessConfig;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Where the JavaScript clients of C02..C04 cannot run, the reason and the fix are named: skipped by default
 * ({@code kit.node.clients=auto}), a misconfiguration with {@code required}, skipped with {@code off}; a value that is
 * none of these names the parameter and the fix.
 */
@DisplayName("client rules: node or its clients missing is a named skip, or with kit.node.clients=required a misconfiguration")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class NodeClientsTests {

	@TempDir
	Path empty;

	private HarnessConfig config(String use) {
		Map<String, String> values = Map.of(ConfigKeys.KIT_NODE_CLIENTS.name(), use, ConfigKeys.KIT_NODE_DIR.name(), empty.toString());
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}

	@Test
	@DisplayName("no node on the PATH: the reason names node and Node.js 20; required says so, off skips")
	void noNode() {
		NodeClients auto = new NodeClients(config("auto"), "");
		assertThat(auto.missing()).hasValueSatisfying(m -> assertThat(m).startsWith("node is not on the PATH").contains("Node.js 20"));
		assertThat(auto.required()).isFalse();
		assertThat(new NodeClients(config("required"), "").required()).isTrue();
		assertThat(new NodeClients(config("off"), "").missing()).hasValue("Not configured: kit.node.clients=off");
		assertThatThrownBy(() -> new NodeClients(config("sometimes"), "")).isInstanceOf(ConfigurationException.class)
				.hasMessageContaining("kit.node.clients value [sometimes]")
				.hasMessageContaining("-Dkit.node.clients=auto");
	}

	@Test
	@DisplayName("node present, clients not installed: the kit writes its package files there and names npm ci --prefix DIR")
	void notInstalled() {
		Optional<String> missing = new NodeClients(config("auto")).missing();
		Assumptions.assumeFalse(missing.isPresent() && missing.get().startsWith("node is not on the PATH"),
				"no node on this machine's PATH: noNode() covers its case");
		assertThat(missing).hasValueSatisfying(m -> assertThat(m).contains("not installed in " + empty)
				.contains("npm ci --prefix " + empty));
		assertThat(empty.resolve("package-lock.json")).exists();
		assertThat(empty.resolve("openai-node.mjs")).exists();
		assertThat(Files.exists(empty.resolve("node_modules"))).isFalse();
	}

	@Test
	@DisplayName("the standalone jar installs the clients itself with npm ci from its lockfile; a Maven build names the command instead")
	void standaloneInstalls(@TempDir Path bin) throws Exception {
		Path node = bin.resolve("node");
		Files.writeString(node, "#!/bin/sh\necho v20.9.0\n");
		Path npm = bin.resolve("npm");
		// a stand-in npm: `npm ci --prefix DIR ...` lays out the five packages the lockfile installs, and says what it got
		Files.writeString(npm, """
				#!/bin/sh
				[ "$1" = ci ] && [ "$2" = --prefix ] || exit 9
				for p in openai ai @ai-sdk/openai-compatible @langchain/openai @langchain/core; do
				  mkdir -p "$3/node_modules/$p" && echo '{"version":"1.0.0"}' > "$3/node_modules/$p/package.json"
				done
				echo "npm $*"
				""");
		node.toFile().setExecutable(true);
		npm.toFile().setExecutable(true);
		Map<String, String> maven = Map.of(ConfigKeys.KIT_NODE_CLIENTS.name(), "auto", ConfigKeys.KIT_NODE_DIR.name(), empty.toString());
		assertThat(new NodeClients(HarnessConfig.of(name -> Optional.ofNullable(maven.get(name))), bin.toString()).missing())
				.hasValueSatisfying(m -> assertThat(m).contains("npm ci --prefix " + empty));

		Map<String, String> jar = Map.of(ConfigKeys.KIT_NODE_CLIENTS.name(), "auto", ConfigKeys.KIT_NODE_DIR.name(), empty.toString(),
				ConfigKeys.KIT_LAUNCHER.name(), "standalone");
		assertThat(new NodeClients(HarnessConfig.of(name -> Optional.ofNullable(jar.get(name))), bin.toString()).missing()).isEmpty();
		assertThat(Files.readString(empty.resolve("npm-ci.log")))
				.contains("npm ci --prefix " + empty + " --no-audit --no-fund --ignore-scripts");

		Files.writeString(npm, "#!/bin/sh\necho registry unreachable; exit 1\n");
		Path other = Files.createDirectories(bin.resolve("other"));
		Map<String, String> failing = Map.of(ConfigKeys.KIT_NODE_CLIENTS.name(), "auto", ConfigKeys.KIT_NODE_DIR.name(), other.toString(),
				ConfigKeys.KIT_LAUNCHER.name(), "standalone");
		assertThat(new NodeClients(HarnessConfig.of(name -> Optional.ofNullable(failing.get(name))), bin.toString()).missing())
				.hasValue(
						"npm ci --prefix " + other + " exited 1 (it needs the npm registry; its log: " + other.resolve("npm-ci.log") + ")");
	}

	/** A client script on the kit's own reading loop that answers with its process id, and ends when a request says so. */
	private static final String PID_SCRIPT = """
			import { answer, main } from './kit-io.mjs';
			await main(async (url, request) => {
				if (request.end) {
					process.stderr.write('told to end\\n');
					process.exit(3);
				}
				return answer(String(process.pid), [], 'stop', null);
			});
			""";

	@Test
	@DisplayName("a client's node process reads run after run; one that ends is named with its exit and standard error, and never reused")
	void keptProcess() throws Exception {
		NodeClients clients = new NodeClients(config("auto"));
		Assumptions.assumeFalse(clients.missing().filter(m -> m.startsWith("node is not on the PATH")).isPresent(),
				"no node on this machine's PATH: noNode() covers its case");
		Files.writeString(empty.resolve("pid.mjs"), PID_SCRIPT);
		List<Map<String, Object>> jobs = List.of(job("a", Map.of()), job("b", Map.of()));

		String first = clients.read("pid.mjs", jobs).get("a").content();
		assertThat(first).as("a process id").matches("\\d+");
		assertThat(clients.read("pid.mjs", jobs).get("b").content()).as("the next run read by the same process").isEqualTo(first);
		assertThatThrownBy(() -> clients.read("pid.mjs", List.of(job("c", Map.of("end", true))))).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("node pid.mjs ended, exited 3")
				.hasMessageContaining("told to end");
		assertThat(clients.read("pid.mjs", jobs).get("a").content()).as("a new process after the one that ended").isNotEqualTo(first);
	}

	private static Map<String, Object> job(String key, Map<String, Object> request) {
		return Map.of("key", key, "url", "http://127.0.0.1:1/v1", "request", request);
	}

	@Test
	@DisplayName("the rule is PENDING_MEASUREMENT naming the reason with auto (never a pass), and fails as a misconfiguration naming -Dkit.node.clients with required")
	void skippedOrRequired() {
		Events auto = run("auto");
		assertThat(auto.finished().stream().map(e -> RuleOutcome.of(e.getPayload(TestExecutionResult.class).orElseThrow())))
				.hasSize(4)
				.containsOnly(RuleOutcome.PENDING_MEASUREMENT);
		assertThat(auto.finished()
				.stream()
				.map(e -> RuleOutcome.message(e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable))))
				.allSatisfy(m -> assertThat(m).startsWith("PENDING_MEASUREMENT: C02 [").contains("] not run: "));
		Events required = run("required");
		assertThat(required.failed().count()).isEqualTo(4);
		assertThat(required.failed()
				.stream()
				.map(e -> e.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow()))
				.allSatisfy(e -> assertThat(e).isInstanceOf(ConfigurationException.class)
						.hasMessageContaining("kit.node.clients=required, but ")
						.hasMessageContaining("-Dkit.node.clients=auto"));
	}

	/** C02 on the reference gateway, with the clients looked for in an empty folder. */
	private Events run(String use) {
		return EngineTestKit.engine("junit-jupiter")
				.selectors(selectMethod(ConfiguredClientVerification.class, "required_C02_openaiNode",
						"dev.fakbattery.wire.Dialect, java.lang.String, org.junit.jupiter.api.TestReporter"))
				.configurationParameters(HarnessConfig.hermeticParameters(Map.of(ConfigKeys.KIT_NODE_CLIENTS.name(), use,
						ConfigKeys.KIT_NODE_DIR.name(), empty.toString())))
				.execute()
				.testEvents();
	}
}
