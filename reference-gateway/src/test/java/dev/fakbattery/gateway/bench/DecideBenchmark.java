package dev.fakbattery.gateway.bench;

import java.util.concurrent.TimeUnit;

import dev.fakbattery.gateway.policy.Decision;
import dev.fakbattery.gateway.policy.Policy;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reference gateway's adjudication decide on the allow path, at 1, 10, 100 and 1000 rules.
 * Target: at most 200 ns, flat in the rule count, 0 bytes allocated per op (read with -prof gc).
 * The rules are a realistic mix: exact names, prefix globs, suffix globs; the allowed tool matches
 * the last prefix rule, so an index that scanned rules would grow with the count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecideBenchmark {

	@Param({ "1", "10", "100", "1000" })
	int rules;

	Policy policy;
	String allowedTool;
	String unknownTool;

	@Setup
	public void setUp() {
		Policy.Builder builder = Policy.builder();
		for (int i = 0; i < rules - 1; i++) {
			switch (i % 3) {
				case 0 -> builder.deny("tool" + i + "_exact", "exact");
				case 1 -> builder.deny("*_suffix" + i, "suffix");
				default -> builder.deny("deny" + i + "_*", "prefix");
			}
		}
		builder.allow("allow_read_*");
		policy = builder.build();
		allowedTool = "allow_read_file";
		unknownTool = "get_weather";
	}

	@Benchmark
	public Decision decideAllow() {
		return policy.decide(allowedTool);
	}

	@Benchmark
	public Decision ruleLookupMiss() {
		return policy.decide(unknownTool);
	}
}
