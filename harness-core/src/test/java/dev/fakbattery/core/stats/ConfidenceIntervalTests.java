package dev.fakbattery.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The interval every measurement carries: bounds, containment, overlap, and what an undefined one says. */
@DisplayName("confidence interval")
class ConfidenceIntervalTests {

	private static ConfidenceInterval of(double lo, double hi) {
		return ConfidenceInterval.ofBounds("ratio of medians", (lo + hi) / 2, lo, hi, 0.95);
	}

	@Test
	@DisplayName("an interval read from an artifact must be finite and ordered")
	void ofBoundsRefusesWhatIsNotAnInterval() {
		assertThat(of(1.0, 1.0).isBounded()).isTrue();
		assertThatThrownBy(() -> of(2.0, 1.0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[2.0, 1.0]");
		assertThatThrownBy(() -> of(Double.NaN, 1.0)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> of(0.0, Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
		assertThat(of(0.9, 1.1)).extracting(ConfidenceInterval::resamples, ConfidenceInterval::seed, ConfidenceInterval::level)
				.containsExactly(0, 0L, 0.95);
	}

	@Test
	@DisplayName("contains its bounds and what lies between them, nothing else; an undefined one contains nothing")
	void contains() {
		ConfidenceInterval ci = of(0.9, 1.1);
		assertThat(ci.contains(0.9)).isTrue();
		assertThat(ci.contains(1.1)).isTrue();
		assertThat(ci.contains(1.0)).isTrue();
		assertThat(ci.contains(0.8999)).isFalse();
		assertThat(ci.contains(1.1001)).isFalse();
		assertThat(ConfidenceInterval.undefined("median", "no samples", 0.95, 0, 1).contains(Double.NaN)).isFalse();
	}

	@Test
	@DisplayName("two intervals overlap when they share a point, touching ends included; never with an undefined one")
	void overlaps() {
		assertThat(of(0.9, 1.1).overlaps(of(1.0, 1.2))).isTrue();
		assertThat(of(1.0, 1.2).overlaps(of(0.9, 1.1))).isTrue();
		assertThat(of(0.9, 1.0).overlaps(of(1.0, 1.2))).as("touching at 1.0").isTrue();
		assertThat(of(1.0, 1.2).overlaps(of(0.9, 1.0))).as("touching at 1.0, the other way").isTrue();
		assertThat(of(0.9, 0.99).overlaps(of(1.0, 1.2))).isFalse();
		assertThat(of(1.0, 1.2).overlaps(of(0.9, 0.99))).isFalse();
		ConfidenceInterval undefined = ConfidenceInterval.undefined("median", "fewer than 6 samples per arm", 0.95, 0, 1);
		assertThat(of(0.9, 1.1).overlaps(undefined)).isFalse();
		assertThat(undefined.overlaps(of(0.9, 1.1))).isFalse();
	}

	@Test
	@DisplayName("an undefined interval is not bounded, has no width and says why; a defined one has none")
	void undefinedSaysWhy() {
		ConfidenceInterval undefined = ConfidenceInterval.undefined("median", "no samples", 0.95, 100, 7);
		assertThat(undefined.isDefined()).isFalse();
		assertThat(undefined.isBounded()).isFalse();
		assertThat(undefined.width()).isNaN();
		assertThat(undefined.reason()).contains("no samples");
		ConfidenceInterval defined = new ConfidenceInterval("median", 1.0, 0.5, 1.5, 0.95, 100, 7, Optional.empty());
		assertThat(defined.isDefined()).isTrue();
		assertThat(defined.width()).isEqualTo(1.0);
		assertThat(new ConfidenceInterval("median", 1.0, Double.NaN, 1.5, 0.95, 100, 7, Optional.empty()).isBounded())
				.as("a defined interval with a NaN bound")
				.isFalse();
		assertThat(new ConfidenceInterval("median", 1.0, 0.5, Double.POSITIVE_INFINITY, 0.95, 100, 7, Optional.empty()).isBounded())
				.as("a defined interval with an infinite bound")
				.isFalse();
	}

	@Test
	@DisplayName("written with its method, rounded only there; an undefined one writes its reason and null numbers")
	void writeTo() {
		ObjectNode node = JsonNodeFactory.instance.objectNode();
		new ConfidenceInterval("ratio of medians", 1.23456, 1.11111, 1.33333, 0.95, 2000, 42, Optional.empty()).writeTo(node, 3);
		assertThat(node.toString()).isEqualTo("{\"statistic\":\"ratio of medians\",\"estimate\":1.235,\"lo\":1.111,\"hi\":1.333,"
				+ "\"level\":0.95,\"method\":\"percentile bootstrap\",\"resamples\":2000,\"seed\":42}");
		ObjectNode undefined = JsonNodeFactory.instance.objectNode();
		ConfidenceInterval.undefined("median", "no samples", 0.95, 0, 1).writeTo(undefined, 3);
		assertThat(undefined.path("reason").asText()).isEqualTo("no samples");
		assertThat(undefined.path("lo").isNull()).isTrue();
	}

	@Test
	@DisplayName("the method is the one that made it: bounds read back say so, a closed form names itself, never a bootstrap it was not")
	void methodIsNamed() {
		ObjectNode read = JsonNodeFactory.instance.objectNode();
		of(0.9, 1.1).writeTo(read, 3);
		assertThat(read.path("method").asText()).isEqualTo(ConfidenceInterval.REPORTED);
		ObjectNode wilson = JsonNodeFactory.instance.objectNode();
		ConfidenceInterval.ofBounds("attainment", 1, 0.904, 1, 0.95, "Wilson score").writeTo(wilson, 3);
		assertThat(wilson.path("method").asText()).isEqualTo("Wilson score");
		assertThat(wilson.path("resamples").asInt()).isZero();
		assertThat(new ConfidenceInterval("median", 1, 1, 1, 0.95, 10, 1, Optional.empty()).method())
				.isEqualTo(ConfidenceInterval.PERCENTILE_BOOTSTRAP);
	}
}
