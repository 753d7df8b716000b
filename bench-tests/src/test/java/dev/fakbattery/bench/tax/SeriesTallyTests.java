package dev.fakbattery.bench.tax;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a rule's tally on recorded series fails on too few levels, over 5 % false stops, or a rule that never fires")
class SeriesTallyTests {

	private static SeriesTally tally(int valid, int falseStops, int invalid, int stopped) {
		SeriesTally tally = new SeriesTally();
		for (int i = 0; i < valid; i++) {
			tally.add(true, i < falseStops);
		}
		for (int i = 0; i < invalid; i++) {
			tally.add(false, i < stopped);
		}
		return tally;
	}

	@Test
	@DisplayName("2 of 40 false stops passes; 3 of 40, 39 valid, 9 invalid or none stopped fails, naming the count")
	void check() {
		assertThatCode(() -> tally(40, 2, 10, 1).check(40)).doesNotThrowAnyException();
		assertThatThrownBy(() -> tally(40, 3, 10, 1).check(40)).hasMessageContaining("false stops: 3 of 40 valid levels");
		assertThatThrownBy(() -> tally(39, 0, 10, 1).check(40)).hasMessageContaining("recorded levels that ended valid");
		assertThatThrownBy(() -> tally(40, 0, 9, 1).check(40)).hasMessageContaining("recorded levels that ended invalid");
		assertThatThrownBy(() -> tally(40, 0, 10, 0).check(40)).hasMessageContaining("levels that ended invalid and are stopped, of 10");
	}
}
