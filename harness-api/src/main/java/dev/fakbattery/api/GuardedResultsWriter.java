package dev.fakbattery.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.fakbattery.core.RunSecrets;
import dev.fakbattery.wire.Json;
import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;

import io.qameta.allure.AllureConstants;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriteException;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.internal.Allure2ModelJackson;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;
import io.qameta.allure.util.PropertiesUtils;

/**
 * The Allure results writer that passes every result, container and attachment through the run's {@link SecretGuard}
 * before the writer below gets it: the secret, in any form the guard knows, is redacted from each string of a result
 * ({@code [REDACTED api.key.env]}, one line at a time; see {@link SecretGuard#redact(byte[])}) and from each line of an
 * attachment ({@link SecretGuard#redactText(byte[])}), so the test still shows in the report without it. A result that
 * would still hold it after that is not written: the failure names the file, the parameter and the form, never the
 * value. With no secret to guard it passes everything on unread.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class GuardedResultsWriter implements AllureResultsWriter {

	private static final Map<Class<?>, String> SUFFIXES = Map.of(TestResult.class, AllureConstants.TEST_RESULT_FILE_SUFFIX,
			TestResultContainer.class, AllureConstants.TEST_RESULT_CONTAINER_FILE_SUFFIX);

	private final AllureResultsWriter delegate;

	private final SecretGuard guard;

	/** Writes through {@code delegate} what {@code guard} let through. */
	public GuardedResultsWriter(AllureResultsWriter delegate, SecretGuard guard) {
		this.delegate = delegate;
		this.guard = guard;
	}

	/**
	 * The file-system writer Allure's own lifecycle would make ({@code allure.results.directory} and its clean settings,
	 * from {@code allure.properties} and the system properties), guarded by {@code guard}.
	 */
	public static GuardedResultsWriter fileSystem(SecretGuard guard) {
		Properties properties = PropertiesUtils.loadAllureProperties();
		return new GuardedResultsWriter(
				new FileSystemResultsWriter(Path.of(properties.getProperty("allure.results.directory", "allure-results")),
						Boolean.parseBoolean(properties.getProperty("allure.results.clean.before.run", "false")),
						Boolean.parseBoolean(properties.getProperty("allure.results.clean.only.once", "true"))),
				guard);
	}

	/** A lifecycle writing results where Allure's would, through the JVM's guard ({@link RunSecrets#jvm()}). */
	public static AllureLifecycle lifecycle() {
		return new AllureLifecycle(fileSystem(RunSecrets.jvm()));
	}

	@Override
	public void write(TestResult result) {
		delegate.write(guarded(result, TestResult.class, result.getUuid()));
	}

	@Override
	public void write(TestResultContainer container) {
		delegate.write(guarded(container, TestResultContainer.class, container.getUuid()));
	}

	@Override
	public void write(String source, InputStream attachment) {
		if (guard.isEmpty()) {
			delegate.write(source, attachment);
			return;
		}
		byte[] bytes;
		try (attachment) {
			bytes = attachment.readAllBytes();
		}
		catch (IOException e) {
			throw new AllureResultsWriteException("Could not read Allure attachment " + source + " to check it for secrets", e);
		}
		delegate.write(source, new ByteArrayInputStream(guard.redactText(bytes)));
	}

	/** {@code value} itself when it holds no secret, else a copy with every string redacted. */
	private <T> T guarded(T value, Class<T> type, String uuid) {
		if (guard.isEmpty()) {
			return value;
		}
		String where = "Allure result " + uuid + SUFFIXES.get(type);
		try {
			var allure = Allure2ModelJackson.createMapper();
			byte[] json = allure.writeValueAsBytes(value);
			if (guard.find(json).isEmpty()) {
				return value;
			}
			JsonNode tree = redact(Json.MAPPER.readTree(json));
			byte[] redacted = Json.MAPPER.writeValueAsBytes(tree);
			guard.requireAbsent(redacted, where);
			// Allure writes its enums in lower case and reads them back only when told to ignore case
			@SuppressWarnings("deprecation")
			var reader = allure.configure(io.qameta.allure.internal.shadowed.jackson.databind.MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS,
					true);
			return reader.readValue(redacted, type);
		}
		catch (IOException e) {
			throw new AllureResultsWriteException("Could not check " + where + " for secrets", e);
		}
	}

	/** {@code node} with every string in it redacted, field names kept (the guard's last check reads them too). */
	private JsonNode redact(JsonNode node) {
		if (node.isTextual()) {
			byte[] text = node.textValue().getBytes(StandardCharsets.UTF_8);
			byte[] redacted = guard.redactText(text);
			return redacted == text ? node : TextNode.valueOf(new String(redacted, StandardCharsets.UTF_8));
		}
		if (node instanceof ObjectNode object) {
			for (Map.Entry<String, JsonNode> field : List.copyOf(object.properties())) {
				object.set(field.getKey(), redact(field.getValue()));
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				array.set(i, redact(array.get(i)));
			}
		}
		return node;
	}
}
