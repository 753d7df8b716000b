package dev.fakbattery.bench.tax;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.bench.preflight.ServedModels;
import dev.fakbattery.bench.preflight.SystemPreflightProbes;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.gateway.GatewayLauncher;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * Obtains the gateway under test through {@link GatewayLauncher} ({@code gateway.url}, else
 * {@code gateway.cmd}, else the embedded reference gateway) and describes it in fak's
 * {@code gateway_process} fields (a gateway that does not answer {@code GET /models} at all counts as not
 * started, so no comparison is ever one-armed): {@code mode} {@code existing}, {@code started},
 * {@code start-failed} or {@code start-timeout}, {@code url}, {@code pid} (null: not exposed),
 * {@code command}, plus {@code embedded}, {@code description}, {@code log} and {@code error}.
 *
 * @param gateway the running gateway; empty when it failed to start
 * @param process the {@code gateway_process} object
 * @param failure why it failed to start, naming its log when there is one
 * @since 0.1
 */
public record GatewayStart(Optional<GatewayUnderTest> gateway, ObjectNode process, Optional<String> failure) {

	/** Starts (or connects to) the gateway in front of {@code upstream}; never throws for a start failure. */
	public static GatewayStart start(HarnessConfig config, URI upstream, String model, Dialect engine, Path logDir) {
		ObjectNode process = Json.MAPPER.createObjectNode();
		Optional<String> url = config.string(HarnessConstants.GATEWAY_URL);
		Optional<String> command = config.string(HarnessConstants.GATEWAY_CMD);
		boolean embedded = url.isEmpty() && command.isEmpty();
		process.put("mode", url.isPresent() ? "existing" : "started");
		process.putNull("url");
		process.putNull("pid");
		var argv = process.putArray("command");
		command.filter(c -> url.isEmpty()).ifPresent(argv::add);
		if (embedded) {
			argv.add("embedded dev.fakbattery:reference-gateway (in this JVM)");
		}
		process.put("embedded", embedded);
		try {
			GatewayUnderTest gateway = GatewayLauncher.resolve(config, upstream, model, engine, logDir);
			process.put("url", gateway.baseUrl().toString());
			ServedModels answer = SystemPreflightProbes.create().models(gateway.baseUrl());
			if (answer.httpStatus() == 0) {
				gateway.close();
				throw new IllegalStateException("GET " + gateway.baseUrl() + "/models got no response: " + answer.bodyExcerpt());
			}
			process.put("description", embedded ? "embedded reference gateway in front of " + upstream : gateway.description());
			gateway.log().ifPresent(log -> process.put("log", log.toString()));
			return new GatewayStart(Optional.of(gateway), process, Optional.empty());
		}
		catch (RuntimeException e) {
			String message = e.getMessage() == null ? e.toString() : e.getMessage();
			process.put("mode", message.contains("did not answer") ? "start-timeout" : "start-failed");
			process.put("error", message);
			process.put("log", command.isPresent() && url.isEmpty() ? logDir.toString() : null);
			String failure = "the gateway did not start (" + (embedded
					? "embedded reference gateway"
					: url.isPresent()
							? "gateway.url " + url.get()
							: "gateway.cmd, logs in " + logDir)
					+ "): " + message;
			return new GatewayStart(Optional.empty(), process, Optional.of(failure));
		}
	}
}
