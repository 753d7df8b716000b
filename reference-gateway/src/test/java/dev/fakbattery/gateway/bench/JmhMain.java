package dev.fakbattery.gateway.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the reference gateway's JMH benchmarks with the GC profiler (allocation per op) and writes
 * JMH's JSON to {@code experiments/jmh/reference-gateway-decide.json}. Fails on any benchmark error.
 * Run: {@code ./mvnw -pl reference-gateway -am verify -Pjmh -DskipTests}.
 */
public final class JmhMain {

	private JmhMain() {
	}

	public static void main(String[] args) throws RunnerException, java.io.IOException {
		Path out = Path.of(args.length > 0 ? args[0] : "experiments/jmh/reference-gateway-decide.json");
		Files.createDirectories(out.toAbsolutePath().getParent());
		new Runner(new OptionsBuilder()
				.include(DecideBenchmark.class.getName())
				.addProfiler(GCProfiler.class)
				.shouldFailOnError(true)
				.jvmArgsAppend("--sun-misc-unsafe-memory-access=allow")
				.resultFormat(ResultFormatType.JSON)
				.result(out.toString())
				.build()).run();
		System.out.println("JMH results: " + out.toAbsolutePath());
	}
}
