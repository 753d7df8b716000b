package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("rate search: the highest rate meeting the SLOs, the next rate to test, and the cost's interval")
class RateSearchTests {

	private static final List<RateSearch.Point> RAW = List.of(new RateSearch.Point(4, 100, 100), new RateSearch.Point(8, 100, 95),
			new RateSearch.Point(16, 100, 40));

	private static final List<RateSearch.Point> GATEWAY = List.of(new RateSearch.Point(4, 100, 99), new RateSearch.Point(8, 100, 70),
			new RateSearch.Point(16, 100, 30));

	@Test
	@DisplayName("the maximum is the highest rate met (>= attainment), not the last before the first miss; censored at the top")
	void maximum() {
		assertThat(RateSearch.maxRateMet(RAW, 0.9)).isEqualTo(OptionalDouble.of(8));
		assertThat(RateSearch.maxRateMet(RAW, 0.95)).as("95/100 meets 0.95 exactly").isEqualTo(OptionalDouble.of(8));
		assertThat(RateSearch.maxRateMet(RAW, 0.96)).isEqualTo(OptionalDouble.of(4));
		assertThat(RateSearch.maxRateMet(List.of(new RateSearch.Point(2, 10, 5), new RateSearch.Point(4, 10, 10)), 0.9))
				.isEqualTo(OptionalDouble.of(4));
		assertThat(RateSearch.maxRateMet(List.of(new RateSearch.Point(2, 0, 0)), 0.9)).isEmpty();
		assertThat(RateSearch.censored(RAW, 0.9)).isFalse();
		assertThat(RateSearch.censored(RAW, 0.3)).isTrue();
		assertThat(RateSearch.censored(List.of(), 0.9)).isFalse();
	}

	@Test
	@DisplayName("the next rate bisects the widest gap between a rate met and the next missed, above the smallest gap")
	void nextRate() {
		assertThat(RateSearch.nextRate(RAW, GATEWAY, 0.9, 0.1)).isEqualTo(OptionalDouble.of(6));
		assertThat(RateSearch.nextRate(RAW, RAW, 0.9, 0.1)).isEqualTo(OptionalDouble.of(12));
		assertThat(RateSearch.nextRate(RAW, RAW, 0.9, 0.6)).as("gap 0.5 below the smallest").isEmpty();
		assertThat(RateSearch.nextRate(List.of(new RateSearch.Point(4, 10, 1)), List.of(), 0.9, 0.1)).isEmpty();
	}

	@Test
	@DisplayName("the cost is raw max - gateway max with a bootstrap interval on the rate grid")
	void compare() {
		RateSearch.Result result = RateSearch.compare(RAW, GATEWAY, 0.9, BootstrapCi.seeded(1).withResamples(2000));
		assertThat(result.rawMax()).isEqualTo(OptionalDouble.of(8));
		assertThat(result.gatewayMax()).isEqualTo(OptionalDouble.of(4));
		assertThat(result.cost().estimate()).isEqualTo(4);
		assertThat(result.cost().lo()).isIn(0.0, 4.0);
		assertThat(result.cost().hi()).isEqualTo(4);
		assertThat(result.rawInterval().lo()).isIn(4.0, 8.0);
		assertThat(result.rawCensored()).isFalse();
		RateSearch.Result none = RateSearch.compare(List.of(new RateSearch.Point(4, 10, 0)), GATEWAY, 0.9, BootstrapCi.seeded(1));
		assertThat(none.cost().isDefined()).isFalse();
		assertThat(none.cost().reason()).hasValue("no rate met the SLOs on an arm");
		RateSearch.Result shaky = RateSearch.compare(List.of(new RateSearch.Point(4, 10, 9)), List.of(new RateSearch.Point(4, 10, 9)), 0.9,
				BootstrapCi.seeded(1).withResamples(1000));
		assertThat(shaky.cost().isDefined()).as("most resamples of 9/10 miss 0.9").isFalse();
		assertThat(shaky.cost().reason().orElseThrow()).endsWith("resamples met no rate on an arm");
	}

	@Test
	@DisplayName("a point must have a positive rate and 0 <= good <= requests")
	void badPoint() {
		assertThatThrownBy(() -> new RateSearch.Point(0, 1, 1))
				.hasMessage("a rate point needs rate > 0 and 0 <= good <= requests, got 0.0, 1/1");
		assertThatThrownBy(() -> new RateSearch.Point(1, 1, 2)).isInstanceOf(IllegalArgumentException.class);
		assertThat(new RateSearch.Point(1, 0, 0).attainment()).isNaN();
	}

	@Test
	@DisplayName("the interval takes the 2.5th and 97.5th percentiles of the resampled maxima, both arms drawn on their own")
	void intervalBounds() {
		List<RateSearch.Point> raw = List.of(new RateSearch.Point(2, 20, 20), new RateSearch.Point(4, 20, 18),
				new RateSearch.Point(6, 20, 15));
		List<RateSearch.Point> gateway = List.of(new RateSearch.Point(2, 20, 20), new RateSearch.Point(4, 20, 16),
				new RateSearch.Point(6, 20, 12));
		RateSearch.Result result = RateSearch.compare(raw, gateway, 0.9, BootstrapCi.seeded(3).withResamples(4000));
		assertThat(result.rawMax()).isEqualTo(OptionalDouble.of(4));
		assertThat(result.gatewayMax()).isEqualTo(OptionalDouble.of(2));
		assertThat(result.cost().estimate()).isEqualTo(2);
		assertThat(result.rawInterval().lo()).isEqualTo(2);
		assertThat(result.rawInterval().hi()).isEqualTo(6);
		assertThat(result.gatewayInterval().lo()).isEqualTo(2);
		assertThat(result.gatewayInterval().hi()).isEqualTo(4);
		assertThat(result.cost().lo()).isEqualTo(-2);
		assertThat(result.cost().hi()).isEqualTo(4);
		assertThat(result.cost().resamples()).isEqualTo(4000);
		assertThat(result.cost().level()).isEqualTo(0.95);
	}
}
