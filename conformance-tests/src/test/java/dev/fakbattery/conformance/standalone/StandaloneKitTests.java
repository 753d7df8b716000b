package dev.fakbattery.conformance.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The standalone jar's flags, as the kit's configuration keys and the console launcher's options. */
@DisplayName("standalone kit: flags become the kit's configuration")
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // NestedRun says why
class StandaloneKitTests {

	@Test
	@DisplayName("--gateway-url, --engine, --upstream-port and --declares-record become gateway.url, engine, kit.upstream.port and gateway.declares.record")
	void flagsToConfiguration() {
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "http://127.0.0.1:8080/v1", "--engine", "sglang",
			"--upstream-port", "9000", "--declares-record", "--exclude-tag", "wire-timing", "--reports-dir", "out", "--only", "W01,W09" }))
				.containsSubsequence("--reports-dir", "out")
				.containsSubsequence("--select-class", "dev.fakbattery.conformance.wire.ConfiguredWireVerification")
				.containsSubsequence("--exclude-tag", "wire-timing")
				.contains("--config", "gateway.url=http://127.0.0.1:8080/v1", "engine=sglang", "kit.upstream.port=9000",
						"gateway.declares.record=true",
						"--include-methodname=.*#[a-z]+_(W01|W09)_.*", "--fail-if-no-tests");
	}

	@Test
	@DisplayName("defaults: vllm, the upstream on 18765 for a gateway URL, reports in ./kit-reports; --rules fault runs the fault rules")
	void defaults() {
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "http://127.0.0.1:8080/v1" })).contains("engine=vllm",
				"kit.upstream.port=" + StandaloneKit.DEFAULT_UPSTREAM_PORT).containsSubsequence("--reports-dir", "kit-reports");
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-cmd", "my-gateway {port} {upstream}", "--rules", "fault" }))
				.contains("dev.fakbattery.conformance.fault.ConfiguredFaultVerification", "gateway.cmd=my-gateway {port} {upstream}")
				.noneMatch(a -> a.startsWith("kit.upstream.port="));
	}

	@Test
	@DisplayName("--rules client runs the client rules C01..C04; --only takes their ids, and a wire id is not one of them")
	void clientRules() {
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "http://127.0.0.1:8080/v1", "--rules", "client", "--only",
			"C02", "--config", "kit.node.dir=/opt/kit-node" })).contains("dev.fakbattery.conformance.wire.ConfiguredClientVerification",
					"--include-methodname=.*#[a-z]+_(C02)_.*", "kit.node.dir=/opt/kit-node");
		assertThatThrownBy(
				() -> StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "u", "--rules", "client", "--only", "W01" }))
				.hasMessageContaining("W01 is not one of the client rules");
	}

	@Test
	@DisplayName("the jar counts pending apart (allow.pending, exit 3) and names its own --config form in fixes; --config allow.pending=false fails it")
	void pendingAndLauncher() {
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "http://127.0.0.1:8080/v1" })).contains(
				"allow.pending=true",
				"kit.launcher=standalone");
		assertThat(StandaloneKit
				.launcherArguments(new String[]{ "--gateway-url", "http://127.0.0.1:8080/v1", "--config", "allow.pending=false" }))
				.contains("allow.pending=false")
				.doesNotContain("allow.pending=true");
	}

	@Test
	@DisplayName("--header and --config gateway.header.NAME go in as one gateway.headers; a --header without a colon is a usage error that does not echo it")
	void headers() {
		assertThat(StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "u", "--header", "x-portkey-provider: openai", "--config",
			"gateway.header.x-portkey-custom-host={upstream}" }))
				.contains("gateway.headers=x-portkey-provider: openai\nx-portkey-custom-host: {upstream}")
				.noneMatch(a -> a.startsWith("gateway.header.x-portkey"));
		assertThatThrownBy(() -> StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "u", "--header", "sk-secret-value" }))
				.hasMessage("--header takes 'NAME: VALUE', e.g. --header 'x-portkey-provider: openai'");
	}

	@Test
	@DisplayName("a usage error names the flag and the fix, and exits 2 without running anything")
	void usageErrors() {
		assertThatThrownBy(() -> StandaloneKit.launcherArguments(new String[0])).hasMessageContaining("--gateway-url");
		assertThatThrownBy(() -> StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "u", "--only", "W99" }))
				.hasMessageContaining("W99 is not one of the wire rules");
		assertThatThrownBy(() -> StandaloneKit.launcherArguments(new String[]{ "--gateway-url", "u", "--upstream-port", "x" }))
				.hasMessageContaining("--upstream-port");
		assertThatThrownBy(() -> StandaloneKit.launcherArguments(new String[]{ "--gateway-url" }))
				.hasMessageContaining("--gateway-url needs a value");
		StringWriter err = new StringWriter();
		assertThat(StandaloneKit.run(new String[]{ "--gatway-url", "u" }, new PrintWriter(new StringWriter()), new PrintWriter(err, true)))
				.isEqualTo(StandaloneKit.USAGE);
		assertThat(err.toString()).contains("unknown option --gatway-url", "--help");
	}

	@Test
	@DisplayName("--help prints the flags, the upstream the gateway must point at, and exits 0")
	void help() {
		StringWriter out = new StringWriter();
		assertThat(StandaloneKit.run(new String[]{ "--help" }, new PrintWriter(out, true), new PrintWriter(new StringWriter()))).isZero();
		assertThat(out.toString()).contains("--gateway-url", "--engine", "--upstream-port", "http://127.0.0.1:UPSTREAM_PORT/v1", "18765",
				"--reports-dir", "--classes CLASS,...", "relay,resilience", "--header 'NAME: VALUE'", "allow.pending=false",
				"gateway.upstream.timeout.ms=MS (F02)", "gateway.max.header.bytes=BYTES", "npm ci");
	}
}
