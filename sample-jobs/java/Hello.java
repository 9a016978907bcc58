/**
 * The class sample-jobs/java.hcl runs with the java driver: prints its arguments and the task's name, exits 0.
 * Compiled by the build (plugins/java) into sample-jobs/java/classes.
 */
public class Hello {
    public static void main(String[] args) {
        System.out.println("Hello from task " + System.getenv("NOMAD_TASK_NAME") + " on Java "
                + Runtime.version().feature() + ", args: " + String.join(" ", args));
    }
}
