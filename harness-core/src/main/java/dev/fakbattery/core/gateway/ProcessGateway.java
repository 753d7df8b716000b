package dev.fakbattery.core.gateway;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.core.process.ManagedProcess;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.SecretGuard;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * A gateway the harness starts from the {@code gateway.cmd} template, with {@code {port}},
 * {@code {upstream}}, {@code {model}} and {@code {engine}} (the upstream's dialect) filled in; its output goes to a log file,
 * redacted by the run's {@link SecretGuard}, it is
 * health-checked ({@code /healthz}, else {@code /v1/models}) until a deadline, once it is proved to hold its port
 * (retried on a new port when another server took it, {@link ManagedProcess#startOnFreePort}), and closing it stops it
 * and its children.
 */
final class ProcessGateway implements GatewayUnderTest {

	private final ManagedProcess process;
	private final URI baseUrl;
	private final boolean declaresRecord;

	private ProcessGateway(ManagedProcess process, URI baseUrl, boolean declaresRecord) {
		this.process = process;
		this.baseUrl = baseUrl;
		this.declaresRecord = declaresRecord;
	}

	static String render(String template, int port, URI upstream, String model, Dialect engine) {
		return template.replace("{port}", String.valueOf(port))
				.replace("{upstream}", upstream.toString())
				.replace("{model}", model)
				.replace("{engine}", engine.id());
	}

	/** Starts the gateway; its log is redacted by {@code guard}. */
	static ProcessGateway start(String template, URI upstream, String model, Dialect engine, Path logDir, Duration timeout,
			boolean declaresRecord, SecretGuard guard) {
		return start(template, upstream, model, engine, logDir, timeout, declaresRecord, ManagedProcess::freePort, guard, Map.of());
	}

	/** Starts the gateway, its health probes sending {@code headers} (the run's {@code gateway.header.*}); its log redacted by {@code guard}. */
	static ProcessGateway start(String template, URI upstream, String model, Dialect engine, Path logDir, Duration timeout,
			boolean declaresRecord, SecretGuard guard, Map<String, String> headers) {
		return start(template, upstream, model, engine, logDir, timeout, declaresRecord, ManagedProcess::freePort, guard, headers);
	}

	/** {@link #start(String, URI, String, Dialect, Path, Duration, boolean, SecretGuard)} over ports from {@code ports}, for self-tests. */
	static ProcessGateway start(String template, URI upstream, String model, Dialect engine, Path logDir, Duration timeout,
			boolean declaresRecord, IntSupplier ports, SecretGuard guard) {
		return start(template, upstream, model, engine, logDir, timeout, declaresRecord, ports, guard, Map.of());
	}

	private static ProcessGateway start(String template, URI upstream, String model, Dialect engine, Path logDir, Duration timeout,
			boolean declaresRecord, IntSupplier ports, SecretGuard guard, Map<String, String> headers) {
		ManagedProcess process = ManagedProcess.startOnFreePort(HarnessConstants.GATEWAY_CMD,
				port -> render(template, port, upstream, model, engine), port -> logDir.resolve("gateway-" + port + ".log"),
				port -> List.of(URI.create("http://127.0.0.1:" + port + "/healthz"), URI.create("http://127.0.0.1:" + port + "/v1/models")),
				timeout, ports, guard, headers);
		return new ProcessGateway(process, URI.create("http://127.0.0.1:" + process.port() + "/v1"), declaresRecord);
	}

	@Override
	public URI baseUrl() {
		return baseUrl;
	}

	@Override
	public String description() {
		return process.description();
	}

	@Override
	public boolean declaresAdjudicationRecord() {
		return declaresRecord;
	}

	@Override
	public Optional<Path> log() {
		return Optional.of(process.log());
	}

	@Override
	public void close() {
		process.close();
	}
}
