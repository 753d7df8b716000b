package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.UnaryOperator;

import dev.fakbattery.wire.CanaryForms;
import dev.fakbattery.wire.SecretGuard;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("while a launcher session is open the console redacts the key from every line printed, and loses none")
class GuardedConsoleTests {

	static final SecretGuard GUARD = CanaryForms.guard(CanaryForms.KEY);

	private final ByteArrayOutputStream console = new ByteArrayOutputStream();

	private PrintStream out;

	private PrintStream err;

	@BeforeEach
	void captureTheConsole() {
		out = System.out;
		err = System.err;
		PrintStream capture = new PrintStream(console, true, StandardCharsets.UTF_8);
		System.setOut(capture);
		System.setErr(capture);
	}

	@AfterEach
	void restoreTheConsole() {
		System.setOut(out);
		System.setErr(err);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#oneLineForms")
	@DisplayName("the key in a form, printed whole, in pieces, and unfinished, to System.out and System.err, is redacted")
	void redactsEachFormOnTheConsole(String name, String expectedForm, UnaryOperator<String> encode) {
		String planted = encode.apply(CanaryForms.KEY);
		int half = planted.length() / 2;

		printEverywhere(new GuardedConsole(() -> GUARD), planted, half);

		String printed = console.toString(StandardCharsets.UTF_8);
		assertThat(GUARD.find(printed)).as("%s: %s", name, printed).isEmpty();
		assertThat(printed.lines().toList()).as("every line printed, each redacted: %s", printed)
				.hasSize(4)
				.allMatch(line -> line.contains("[REDACTED api.key.env"));
		if (!printed.contains("the line held it")) {
			assertThat(printed.lines().toList()).as("the text around the key kept: %s", printed)
					.anyMatch(line -> line.startsWith("out: é "))
					.anyMatch(line -> line.startsWith("err: ") && line.endsWith(" tail"))
					.anyMatch(line -> line.startsWith("pieces: ") && line.endsWith(" €"))
					.anyMatch(line -> line.startsWith("unfinished: "));
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("dev.fakbattery.wire.CanaryForms#oneLineForms")
	@DisplayName("self-test: with no secret to guard the console is left as it is and the key is printed, so the redaction test can fail")
	void withoutASecretTheKeyIsPrinted(String name, String expectedForm, UnaryOperator<String> encode) {
		PrintStream before = System.out;
		String planted = encode.apply(CanaryForms.KEY);

		printEverywhere(new GuardedConsole(SecretGuard::none), planted, planted.length() / 2);

		assertThat(System.out).isSameAs(before);
		assertThat(GUARD.find(console.toString(StandardCharsets.UTF_8))).as(name).isPresent();
	}

	@Test
	@DisplayName("a session opened inside a guarded one changes nothing; the outer one's close gives the console back")
	void nestedSessionsWrapOnce() {
		PrintStream before = System.out;
		GuardedConsole outer = new GuardedConsole(() -> GUARD);
		GuardedConsole inner = new GuardedConsole(() -> GUARD);

		outer.launcherSessionOpened(null);
		PrintStream guarded = System.out;
		inner.launcherSessionOpened(null);
		assertThat(System.out).as("not wrapped twice").isSameAs(guarded).isNotSameAs(before);
		inner.launcherSessionClosed(null);
		assertThat(System.out).as("still guarded").isSameAs(guarded);
		System.out.print("held " + CanaryForms.KEY);
		outer.launcherSessionClosed(null);

		assertThat(System.out).isSameAs(before);
		assertThat(console.toString(StandardCharsets.UTF_8)).isEqualTo("held [REDACTED api.key.env]");
	}

	@Test
	@DisplayName("closing gives both streams back; one that someone else replaced meanwhile is left as they set it")
	void closeGivesBothStreamsBack() {
		PrintStream beforeOut = System.out;
		PrintStream beforeErr = System.err;
		GuardedConsole session = new GuardedConsole(() -> GUARD);

		session.launcherSessionOpened(null);
		assertThat(System.err).as("err guarded").isNotSameAs(beforeErr);
		session.launcherSessionClosed(null);
		assertThat(System.out).isSameAs(beforeOut);
		assertThat(System.err).isSameAs(beforeErr);

		PrintStream replaced = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
		session.launcherSessionOpened(null);
		System.setOut(replaced);
		System.setErr(replaced);
		session.launcherSessionClosed(null);
		assertThat(System.out).as("out, replaced during the session").isSameAs(replaced);
		assertThat(System.err).as("err, replaced during the session").isSameAs(replaced);
	}

	private static void printEverywhere(GuardedConsole session, String planted, int half) {
		session.launcherSessionOpened(null);
		try {
			System.out.println("out: é " + planted);
			System.err.println("err: " + planted + " tail");
			System.out.print("pieces: " + planted.substring(0, half));
			System.out.flush();
			System.out.print(planted.substring(half));
			System.out.println(" €");
			System.err.print("unfinished: " + planted);
		}
		finally {
			session.launcherSessionClosed(null);
		}
	}
}
