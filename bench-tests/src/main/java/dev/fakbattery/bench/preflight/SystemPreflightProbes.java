package dev.fakbattery.bench.preflight;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

import dev.fakbattery.core.process.CommandRunner;
import dev.fakbattery.core.process.ProcessCommandRunner;
import dev.fakbattery.wire.HttpClients;

/**
 * The live probes of a serving node: nvidia-smi and the engine import through a
 * {@link CommandRunner}, the endpoint through {@link HttpClient}, each bounded by a timeout.
 *
 * @since 0.1
 */
public final class SystemPreflightProbes implements PreflightProbes {

	private final CommandRunner runner;
	private final HttpClient http;
	private final String python;
	private final Duration httpTimeout;

	/**
	 * @param runner runs nvidia-smi and the import probe
	 * @param http the client of the endpoint probes
	 * @param python the Python of the engine, for example {@code python} or {@code /opt/vllm/bin/python}
	 * @param httpTimeout how long one endpoint probe may take
	 */
	public SystemPreflightProbes(CommandRunner runner, HttpClient http, String python, Duration httpTimeout) {
		this.runner = Objects.requireNonNull(runner, "runner");
		this.http = Objects.requireNonNull(http, "http");
		this.python = Objects.requireNonNull(python, "python");
		this.httpTimeout = Objects.requireNonNull(httpTimeout, "httpTimeout");
	}

	/** 30 s per command (fak's), 10 s per HTTP probe, {@code python} from the PATH. */
	public static SystemPreflightProbes create() {
		return new SystemPreflightProbes(new ProcessCommandRunner(Duration.ofSeconds(30)),
				HttpClients.negotiating(Duration.ofSeconds(10)), "python", Duration.ofSeconds(10));
	}

	@Override
	public NvidiaSmiReading nvidiaSmi() {
		return NvidiaSmi.read(runner);
	}

	@Override
	public EngineProbe engineImport(String engine) {
		return EngineProbe.fromImport(runner.run(EngineProbe.command(python, engine)));
	}

	@Override
	public ServedModels models(URI v1Base) {
		return ServedModels.parse(get(URI.create(stripSlash(v1Base) + "/models")));
	}

	@Override
	public EngineVersionInfo version(URI v1Base) {
		return EngineVersionInfo.parse(get(URI.create(root(v1Base) + "/version")));
	}

	/** {@code http://h:8000/v1} becomes {@code http://h:8000}. */
	static String root(URI v1Base) {
		String base = stripSlash(v1Base);
		return base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
	}

	private static String stripSlash(URI uri) {
		String text = uri.toString();
		return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
	}

	private HttpReply get(URI uri) {
		HttpRequest request = HttpRequest.newBuilder(uri).timeout(httpTimeout).GET().build();
		try {
			HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
			return HttpReply.of(response.statusCode(), response.body());
		}
		catch (IOException e) {
			return HttpReply.failed(e.getClass().getSimpleName() + ": " + e.getMessage() + " (GET " + uri + ")");
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return HttpReply.failed("interrupted (GET " + uri + ")");
		}
	}
}
