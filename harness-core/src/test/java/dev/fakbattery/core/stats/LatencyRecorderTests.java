package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LatencyRecorder")
class LatencyRecorderTests {

	@Test
	@DisplayName("while it holds every sample the summary is exact")
	void exactUpToCapacity() {
		LatencyRecorder recorder = new LatencyRecorder(100);
		for (double ms : PercentilesTests.LOGNORMAL_37) {
			recorder.recordMillis(ms);
		}

		assertThat(recorder.summary()).isEqualTo(Summary.ofMillis(PercentilesTests.LOGNORMAL_37));
		assertThat(recorder.histogram().getTotalCount()).isEqualTo(37);
	}

	@Test
	@DisplayName("past its exact capacity it summarises from the histogram, within 0.1%")
	void histogramPastCapacity() {
		LatencyRecorder recorder = new LatencyRecorder(1_000);
		double[] all = new double[20_000];
		SplittableRandom random = new SplittableRandom(3);
		for (int i = 0; i < all.length; i++) {
			all[i] = 50 + 450 * random.nextDouble();
			recorder.recordMillis(all[i]);
		}
		Summary exact = Summary.ofMillis(all);

		Summary s = recorder.summary();

		assertThat(s.method()).isEqualTo(Summary.Method.HDR_HISTOGRAM);
		assertThat(s.count()).isEqualTo(20_000);
		assertThat(s.p50()).isCloseTo(exact.p50(), within(exact.p50() * 0.002));
		assertThat(s.p99()).isCloseTo(exact.p99(), within(exact.p99() * 0.002));
		assertThat(s.mean()).isCloseTo(exact.mean(), within(exact.mean() * 0.002));
	}

	@Test
	@DisplayName("an empty recorder has an empty summary")
	void emptyRecorder() {
		assertThat(new LatencyRecorder().summary().isEmpty()).isTrue();
	}

	@Test
	@DisplayName("a negative or NaN latency is rejected, not recorded")
	void rejectsBadLatencies() {
		LatencyRecorder recorder = new LatencyRecorder();

		assertThatIllegalArgumentException().isThrownBy(() -> recorder.recordMillis(-1)).withMessageContaining("-1");
		assertThatIllegalArgumentException().isThrownBy(() -> recorder.recordMillis(Double.NaN));
		assertThat(recorder.count()).isZero();
	}
}
