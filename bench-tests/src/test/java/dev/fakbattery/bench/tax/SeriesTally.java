package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stopping rule's tally on recorded lag series: of the levels that ended valid, how many it would have stopped (its
 * false stops); of those that ended invalid, how many it stops.
 */
final class SeriesTally {

	private int valid;
	private int falseStops;
	private int invalid;
	private int stopped;

	/** One recorded level: whether it ended valid, and whether the rule stops it. */
	void add(boolean endedValid, boolean stops) {
		if (endedValid) {
			valid++;
			falseStops += stops ? 1 : 0;
		}
		else {
			invalid++;
			stopped += stops ? 1 : 0;
		}
	}

	/**
	 * At least {@code minValid} valid and 10 invalid levels; at most 5 % of the valid ones stopped; some invalid ones
	 * stopped (the rule can fire at all).
	 */
	void check(int minValid) {
		assertThat(valid).as("recorded levels that ended valid").isGreaterThanOrEqualTo(minValid);
		assertThat(invalid).as("recorded levels that ended invalid").isGreaterThanOrEqualTo(10);
		assertThat((double) falseStops / valid).as("false stops: %d of %d valid levels", falseStops, valid).isLessThanOrEqualTo(0.05);
		assertThat(stopped).as("levels that ended invalid and are stopped, of %d", invalid).isPositive();
	}
}
