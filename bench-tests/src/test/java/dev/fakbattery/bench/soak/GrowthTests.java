package dev.fakbattery.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The soak's judge of unbounded growth: it passes what settles and fails what climbs, with its numbers. */
@DisplayName("soak: unbounded growth")
class GrowthTests {

	@Test
	@DisplayName("a series that settles after warm-up, or noise around a level, is bounded")
	void settlesOrNoise() {
		double[] settles = { 10, 60, 95, 100, 101, 99, 100, 102, 100, 101, 99, 100 };
		double[] noise = IntStream.range(0, 30).mapToDouble(i -> 200 + (i % 3 == 0 ? 20 : -10)).toArray();

		assertThat(Growth.unbounded("heap after GC (MiB)", settles, 0.25, 32)).isEmpty();
		assertThat(Growth.unbounded("threads", noise, 0.25, 32)).isEmpty();
	}

	@Test
	@DisplayName("a steady climb fails, naming the series, the medians by third and the limit")
	void steadyClimbFails() {
		double[] leak = IntStream.range(0, 20).mapToDouble(i -> 100 + 10 * i).toArray();

		assertThat(Growth.unbounded("heap after GC (MiB)", leak, 0.25, 32))
				.contains("heap after GC (MiB) grows without bound: medians by third 160.0, 215.0, 270.0 (rise 110.0, limit 40.0)");
	}

	@Test
	@DisplayName("a small climb within the limit passes; NaN samples are left out")
	void smallClimbPasses() {
		double[] small = IntStream.range(0, 20).mapToDouble(i -> i == 7 ? Double.NaN : 1000 + i).toArray();

		assertThat(Growth.unbounded("open file descriptors", small, 0.25, 64)).isEmpty();
	}

	@Test
	@DisplayName("too few samples cannot be judged, and the finding says what to change")
	void tooFewSamples() {
		assertThat(Growth.unbounded("threads", new double[]{ 1, 2, 3, 4 }, 0.25, 32))
				.contains("threads: 4 samples, too few to judge after 2"
						+ " of warm-up (need at least 5; run longer or sample more often)");
	}
}
