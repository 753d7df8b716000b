package dev.fakbattery.bench.canary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.fakbattery.core.ArtifactId;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.Profile;
import dev.fakbattery.core.process.ChildJava;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Secrets never reach the battery's evidence: a smoke battery run in a child JVM (the serving witness with its
 * quarantine flow, preflight and tax rungs, the final gate, the single-file Allure report) with a canary API key in
 * the environment variable {@code api.key.env} names, and the gateway started from {@code gateway.cmd} so that it
 * writes a log; then every file the run wrote (artifacts, gateway log, the child's output, Allure results, the gate's
 * files, the HTML report) is scanned for the key and for the secret of the quarantined tool result,
 * in every form the harness's {@code SecretGuard} knows (raw, JSON-escaped, URL-encoded, base64), under each profile that
 * runs rungs; under battery with {@code tax.smoke=true}, so that its tax rung runs at the smoke run's sizes (seconds, not
 * minutes) and says so in its artifacts. The gate profile runs no rung, and its writers (the gate's files, the results'
 * environment) run in each. The same run with the gateway logging request bodies is caught by the same scan: it can
 * fail.
 */
@DisplayName("canary secrets: no file a battery run writes holds the API key or a quarantined secret")
@Timeout(300)
@Execution(ExecutionMode.CONCURRENT) // each case a child battery in its own folder, mostly waiting on the double's pace
class CanaryLeakTests {

	static final String KEY_ENV = "FAK_CANARY_API_KEY";

	/** The secret of the serving witness's quarantined tool result (its rung constant). */
	static final String QUARANTINED = "sk-abcdef0123456789abcdef0123";

	static final List<String> RUNGS = List.of("dev.fakbattery.bench.serving.ServingWitnessRungTests",
			"dev.fakbattery.bench.preflight.PreflightRungTests", "dev.fakbattery.bench.tax.TaxRungTests");

	@TempDir
	Path root;

	@ParameterizedTest(name = "under -P{0}")
	@EnumSource(value = Profile.class, names = { "DEFAULT", "BATTERY", "GPU", "LLAMACPP" })
	@DisplayName("a smoke battery run leaves neither secret in any artifact, log, Allure result or report")
	void smokeBatteryLeaksNothing(Profile profile, org.junit.jupiter.api.TestReporter reporter) throws Exception {
		String key = "sk-canary-" + UUID.randomUUID().toString().replace("-", "");
		runBattery(key, false, RUNGS, profile);
		Path report = allureReport();

		JsonNode witness = Json.MAPPER.readTree(root.resolve("experiments/full-size-serving-witness.json").toFile());
		assertThat(witness.path("provenance").path("api_key_env").asText()).as("the key went in by name").isEqualTo(KEY_ENV);
		if (profile.embeddedTargetAllowed()) {
			assertThat(witness.path("gateway_quarantine").path("status").asText()).as("the secret went through the quarantine")
					.isEqualTo("PASS");
			assertThat(witness.path("gateway").path("log").asText()).as("the gateway wrote a log")
					.startsWith(root.resolve("experiments/logs").toString());
		}
		if (profile == Profile.BATTERY) {
			JsonNode tax = Json.MAPPER.readTree(root.resolve("experiments").resolve(ArtifactId.TAX_WITNESS.fileName()).toFile());
			assertThat(tax.path("provenance").path("sample_sizes").asText()).as("the battery's tax rung at the smoke run's sizes")
					.isEqualTo("smoke (" + HarnessConstants.TAX_SMOKE + "=true under -Pbattery)");
		}
		assertThat(root.resolve("experiments/final-check.json")).exists();
		assertThat(Files.size(report)).as("the single-file Allure report").isPositive();
		assertThat(LeakScan.files(root.resolve("allure-results"))).as("Allure results written").isPositive();

		List<String> findings = LeakScan.scan(root, secrets(key));
		reporter.publishEntry("files scanned", LeakScan.files(root) + " files, " + Files.size(report) + " bytes of HTML report, findings "
				+ findings.size());
		System.out.println(
				"[canary] scanned " + LeakScan.files(root) + " files written by the smoke battery: " + findings.size() + " findings");
		assertThat(findings).as("secrets found in the %d files the run wrote", LeakScan.files(root)).isEmpty();
	}

	@Test
	@DisplayName("the same run with the gateway logging request bodies is caught: the quarantined secret is in its log")
	void loggedBodiesAreCaught() throws Exception {
		String key = "sk-canary-" + UUID.randomUUID().toString().replace("-", "");
		runBattery(key, true, List.of(RUNGS.get(0)), Profile.DEFAULT);

		List<String> findings = LeakScan.scan(root, secrets(key));
		assertThat(findings).isNotEmpty();
		assertThat(findings).allMatch(finding -> finding.startsWith("quarantined tool-result secret in experiments/logs/gateway-"),
				"in the gateway log");
	}

	@Test
	@DisplayName("the scan finds a secret written as is, and one inside a base64 blob like the report's")
	void scanFindsRawAndBase64() throws IOException {
		Files.writeString(root.resolve("a.log"), "x Authorization: Bearer sk-canary-123456 y");
		String blob = Base64.getEncoder().encodeToString("{\"token\":\"sk-canary-123456\"}".getBytes(StandardCharsets.UTF_8));
		Files.writeString(root.resolve("index.html"), "d('data/test-cases/1.json','" + blob + "'),");
		Files.writeString(root.resolve("clean.json"), "{\"api_key_env\":\"" + KEY_ENV + "\"}");

		assertThat(LeakScan.scan(root, Map.of("canary API key", "sk-canary-123456")))
				.containsExactly("canary API key in a.log (raw)", "canary API key in index.html (base64)");
	}

	private static Map<String, String> secrets(String key) {
		return Map.of("canary API key", key, "quarantined tool-result secret", QUARANTINED);
	}

	/** The smoke battery in a child JVM: the key in its environment, every output under {@link #root}. */
	private void runBattery(String key, boolean logBodies, List<String> rungs, Profile profile) throws Exception {
		String classpath = System.getProperty("java.class.path");
		String gatewayCmd = ChildJava.shellCommand() + " -cp '" + classpath + "'"
				+ " dev.fakbattery.gateway.Main --upstream {upstream} --port {port}"
				+ (logBodies ? " --log-bodies" : "");
		Path experiments = root.resolve("experiments");
		Path results = root.resolve("allure-results");
		Files.createDirectories(root.resolve("logs"));
		List<String> command = new ArrayList<>(ChildJava.command());
		command.addAll(List.of("-cp", classpath, "-Dsun.net.httpserver.nodelay=true",
				"-Dharness.profile=" + profile.id(), "-Dexperiments.dir=" + experiments, "-Dallure.results.directory=" + results,
				"-Dharness.root.dir=" + root, "-Dapi.key.env=" + KEY_ENV, "-Dgateway.cmd=" + gatewayCmd, "-Dallow.pending=true"));
		if (profile == Profile.BATTERY) {
			command.add("-D" + HarnessConstants.TAX_SMOKE + "=true");
		}
		command.addAll(List.of(CanaryBatteryMain.class.getName(), experiments.toString(), results.toString(), root.toString()));
		command.addAll(rungs);
		ProcessBuilder child = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(root.resolve("logs/battery.log").toFile());
		child.environment().put(KEY_ENV, key);
		Process process = child.start();
		assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("the smoke battery ended").isTrue();
		assertThat(process.exitValue()).as("smoke battery exit status; see " + root.resolve("logs/battery.log")).isZero();
	}

	/** The single-file Allure report of the run's results, with the Allure command line the build unpacked. */
	private Path allureReport() throws Exception {
		Path cli = Path.of(System.getProperty("allure.cli.home", "target/allure-cli/allure-2.34.0"));
		assertThat(cli.resolve("lib")).as("the Allure command line (unpacked by the build)").isDirectory();
		Path out = root.resolve("reports/allure");
		String classpath = cli.resolve("lib").toAbsolutePath() + "/*:" + cli.resolve("lib/config").toAbsolutePath();
		List<String> command = new ArrayList<>(ChildJava.command());
		command.addAll(List.of("-cp", classpath,
				"io.qameta.allure.CommandLine", "generate", root.resolve("allure-results").toString(), "-o", out.toString(),
				"--single-file",
				"--clean"));
		ProcessBuilder generate = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(root.resolve("logs/allure.log").toFile());
		generate.environment().put("APP_HOME", cli.toAbsolutePath().toString());
		generate.environment().put("ALLURE_NO_ANALYTICS", "1");
		Process process = generate.start();
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the Allure report generated").isTrue();
		assertThat(process.exitValue()).as("allure generate exit status; see " + root.resolve("logs/allure.log")).isZero();
		return out.resolve("index.html");
	}
}
