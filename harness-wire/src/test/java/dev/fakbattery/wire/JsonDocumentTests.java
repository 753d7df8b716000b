package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("JsonDocument: an artifact file is an object, missing, or unreadable with the reason")
class JsonDocumentTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a JSON object is read, keys in file order")
	void object() throws IOException {
		Path file = Files.writeString(dir.resolve("a.json"), "{\"verdict\":\"PASS\",\"schema\":\"x\"}");
		JsonDocument read = JsonDocument.read(file);
		assertThat(read.isObject()).isTrue();
		assertThat(read.object().fieldNames()).toIterable().containsExactly("verdict", "schema");
		assertThat(read.detail()).isEqualTo("ok");
	}

	@Test
	@DisplayName("a missing file is missing, not unreadable, and has no object")
	void missing() {
		JsonDocument read = JsonDocument.read(dir.resolve("absent.json"));
		assertThat(read.isMissing()).isTrue();
		assertThat(read.isObject()).isFalse();
		assertThatThrownBy(read::object).isInstanceOf(IllegalStateException.class).hasMessageEndingWith("absent.json is missing");
	}

	@Test
	@DisplayName("broken JSON, an array and an empty file are unreadable, each with why")
	void unreadable() throws IOException {
		JsonDocument broken = JsonDocument.read(Files.writeString(dir.resolve("b.json"), "{ not json"));
		JsonDocument array = JsonDocument.read(Files.writeString(dir.resolve("c.json"), "[1]"));
		JsonDocument empty = JsonDocument.read(Files.writeString(dir.resolve("d.json"), ""));
		assertThat(broken.state()).isEqualTo(JsonDocument.State.UNREADABLE);
		assertThat(broken.detail()).startsWith("unreadable: ").doesNotContain("\n");
		assertThat(array.state()).isEqualTo(JsonDocument.State.UNREADABLE);
		assertThat(array.detail()).isEqualTo("not a JSON object");
		assertThat(empty.state()).isEqualTo(JsonDocument.State.UNREADABLE);
	}
}
