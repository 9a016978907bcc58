package io.drover.nomad.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.TaskResources;
import io.drover.nomad.proto.driver.AllocatedCpuResources;
import io.drover.nomad.proto.driver.AllocatedMemoryResources;
import io.drover.nomad.proto.driver.AllocatedTaskResources;
import io.drover.nomad.proto.driver.Resources;
import io.drover.nomad.proto.driver.TaskConfig;
import org.junit.jupiter.api.Test;

/** What a Nomad client's {@code AllocatedTaskResources} become in the driver's {@link TaskResources}. */
class NomadResourcesTest {
    @Test
    void nomadsAllocatedResourcesReachTheDriver() {
        TaskConfig nomad = TaskConfig.newBuilder().setResources(Resources.newBuilder().setAllocatedResources(
                AllocatedTaskResources.newBuilder()
                        .setCpu(AllocatedCpuResources.newBuilder().setCpuShares(250))
                        .setMemory(AllocatedMemoryResources.newBuilder().setMemoryMb(64).setMemoryMaxMb(128))))
                .build();
        assertThat(NomadTasks.resources(nomad)).isEqualTo(new TaskResources(250, 64, 128));
    }

    @Test
    void memoryMaxMinusOneIsNoHardLimitAndNoResourcesIsNone() {
        TaskConfig unlimited = TaskConfig.newBuilder().setResources(Resources.newBuilder().setAllocatedResources(
                AllocatedTaskResources.newBuilder()
                        .setMemory(AllocatedMemoryResources.newBuilder().setMemoryMb(64).setMemoryMaxMb(-1))))
                .build();
        assertThat(NomadTasks.resources(unlimited)).isEqualTo(new TaskResources(0, 64, -1));
        assertThat(NomadTasks.resources(TaskConfig.getDefaultInstance())).isEqualTo(TaskResources.NONE);
    }
}
