local steer = require "steer"
describe("smoke", function()
  it("loads", function() assert.equal("0.1.0", steer.version) end)
end)
