local f = string.dump(function() return 1 end)
print(load(f))
print(load(f, "x", "b"))
print(pcall(load, f, "x", "bt", {}))
--@ f
