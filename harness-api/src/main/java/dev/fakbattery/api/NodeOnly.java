package dev.fakbattery.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;

/**
 * Marks a rung test that needs a serving node: tagged {@code gpu}, so the default profile
 * ({@code ./mvnw verify}) leaves it out and {@code -Pbattery} / {@code -Pgpu} run it.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag("gpu")
public @interface NodeOnly {
}
