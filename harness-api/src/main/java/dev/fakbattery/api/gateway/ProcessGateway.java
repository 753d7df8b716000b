package dev.fakbattery.api.gateway;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.fakbattery.api.HarnessConstants;
import dev.fakbattery.api.process.ManagedProcess;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * A gateway the harness starts from the {@code gateway.cmd} template, with {@code {port}},
 * {@code {upstream}}, {@code {model}} and {@code {engine}} (the upstream's dialect) filled in; its output goes to a log file, it is
 * health-checked ({@code /healthz}, else {@code /v1/models}) until a deadline, and closing it
 * stops it and its children ({@link ManagedProcess}).
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
		return template.replace("{port}", String.valueOf(port)).replace("{upstream}", upstream.toString())
			.replace("{model}", model).replace("{engine}", engine.id());
	}

	static ProcessGateway start(String template, URI upstream, String model, Dialect engine, Path logDir, Duration timeout,
			boolean declaresRecord) {
		int port = ManagedProcess.freePort();
		ManagedProcess process = ManagedProcess.start(HarnessConstants.GATEWAY_CMD, render(template, port, upstream, model, engine),
				logDir.resolve("gateway-" + port + ".log"));
		URI baseUrl = URI.create("http://127.0.0.1:" + port + "/v1");
		process.awaitHealthy(List.of(URI.create("http://127.0.0.1:" + port + "/healthz"), URI.create(baseUrl + "/models")), timeout);
		return new ProcessGateway(process, baseUrl, declaresRecord);
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
