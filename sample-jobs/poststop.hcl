job "example" {
  datacenters = ["dc1"]
  type = "batch"
  
  group "test-group" {
    task "test-task" {
      driver = "raw_exec"
   
      config {
        command = "echo"
        args = [ "foo" ]
      }
    }
 
    task "poststop" {
      driver = "raw_exec"
 
      lifecycle {
        hook = "poststop"
        sidecar = false
      }
   
      config {
        command = "echo"
        args = [ "bar" ]
      }
    }
  }
}
