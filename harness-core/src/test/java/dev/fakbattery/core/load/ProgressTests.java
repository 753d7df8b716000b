package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Progress")
class ProgressTests {

	@Test
	@DisplayName("prints '[label] step done/total ETA' at most once per interval, and a final line")
	void throttled() {
		AtomicLong clock = new AtomicLong();
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		Progress progress = Progress.start("tax", "sweep c=8 raw", 10, Duration.ofSeconds(5),
				new PrintStream(bytes, true, StandardCharsets.UTF_8), clock::get);
		for (int i = 0; i < 4; i++) {
			clock.addAndGet(1_000_000_000L);
			progress.advance();
		}
		clock.addAndGet(1_000_000_000L);
		progress.advance();
		clock.addAndGet(1_000_000_000L);
		progress.advance();
		progress.finish();
		assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList())
				.containsExactly("[tax] sweep c=8 raw 5/10 ETA 5s", "[tax] sweep c=8 raw 6/10 ETA 4s");
		assertThat(progress.line(10, 12_000_000_000L)).isEqualTo("[tax] sweep c=8 raw 10/10 done in 12s");
		assertThat(progress.line(0, 0)).endsWith("0/10 ETA ?");
	}

	@Test
	@DisplayName("silent progress counts without printing")
	void silent() {
		Progress progress = Progress.silent();
		long before = progress.done();
		progress.advance();
		assertThat(progress.done()).isEqualTo(before + 1);
	}
}
