package dev.fakbattery.conformance.wire;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The whole kit against the reference gateway started the way an operator starts any gateway:
 * {@code -Dgateway.cmd} with its runnable jar, health-checked, logged and stopped by the harness.
 */
@Tag("wire")
@DisplayName("wire conformance: reference gateway started from its jar through gateway.cmd")
class GatewayCmdWireTests extends WireVerification {

	@Override
	protected GatewayUnderTest createGateway(URI upstream, Dialect engine) {
		Path jar = jar();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String command = java + " " + String.join(" ", testJvmFlags()) + " -jar " + jar + " --upstream {upstream} --port {port} --engine "
				+ engine;
		// 120 s to answer /healthz, not the default 45: at a load average near 34 on 2 cores (2026-12-02) the jar's
		// JVM printed its first line and then took longer than 45 s to answer
		HarnessConfig config = HarnessConfig.of(name -> Optional.ofNullable(Map.of(HarnessConstants.GATEWAY_CMD, command,
				HarnessConstants.GATEWAY_DECLARES_RECORD, "true", HarnessConstants.GATEWAY_START_TIMEOUT_SEC, "120").get(name)));
		return GatewayLauncher.resolve(config, upstream, GATEWAY_MODEL, engine, Path.of("target", "gateway-logs"));
	}

	private static Path jar() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path jar = dir.resolve("reference-gateway/target/reference-gateway.jar");
			if (Files.isRegularFile(jar)) {
				return jar;
			}
		}
		throw new IllegalStateException("reference-gateway/target/reference-gateway.jar not found: build it first "
				+ "(./mvnw verify builds it before this module)");
	}

	/** The test JVM's JIT and GC flags ({@code test.jvm.flags}, root pom; empty under the measuring profiles) for the JVMs it starts. */
	private static List<String> testJvmFlags() {
		return Arrays.stream(System.getProperty("test.jvm.flags", "").split(" ")).filter(flag -> !flag.isBlank()).toList();
	}
}
