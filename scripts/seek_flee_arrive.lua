-- Seek, flee and arrive with the mouse pointer as the target: the same target, three behaviours side by side.
-- Keys: 1 seek, 2 flee (panic distance 200), 3 arrive (slowing radius 120), 4 all three; the mouse moves the target.
-- Try: hold the pointer still: arrive settles without overshooting; seek overshoots and circles (see the trails).
local M = { world = { width = 900, height = 600, edges = "contain", seed = 1 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "mouse", "the target (else it tours four spots)" },
  { "1", "seek" },
  { "2", "flee (panic distance 200)" },
  { "3", "arrive (slowing radius 120)" },
  { "4", "all three at once (the start)" },
}

-- The pointer as the last mousemoved callback gave it: there is none before the mouse first moves
-- over the window (nor in headless runs, where steer.mouse() has nothing real to say).
local pointer
function M.mousemoved(x, y) pointer = { x, y } end
local function mouse() if pointer then return pointer[1], pointer[2] end end

-- Each mode's vehicle: its colour and where it starts. "all" runs the three side by side.
local LOOKS = {
  arrive = { color = { 120, 200, 255 }, x = 150, y = 520 },
  seek = { color = { 255, 170, 70 }, x = 750, y = 520 },
  flee = { color = { 240, 100, 120 }, x = 450, y = 560 },
}
local ORDER = { "arrive", "seek", "flee" }

local mode, switched = "all", true
local agents = {} -- { v = vehicle, mode = "seek" | "flee" | "arrive", trail = { {x, y}, ... } }
local tx, ty = 450, 300

-- Without a mouse (headless runs, screenshots) the target tours these spots, resting M.DWELL seconds
-- at each: a target that never stops would hide the point of arrive (it settles and stops) and of
-- flee (it runs to the panic distance and no further).
M.SPOTS = { { 300, 220 }, { 640, 400 }, { 620, 190 }, { 280, 420 } }
M.DWELL = 6

-- The mouse, or the spot of the moment.
local function target(world)
  local x, y = mouse()
  if x then return x, y end
  local spot = M.SPOTS[math.floor(world.time / M.DWELL) % #M.SPOTS + 1]
  return spot[1], spot[2]
end

local function spawn(world, which)
  local look = LOOKS[which]
  local v = world:spawn{ kind = "agent", x = look.x, y = look.y, max_speed = 180, max_force = 300, radius = 8,
                         color = look.color }
  v.state = which
  return { v = v, mode = which, trail = {} }
end

-- The vehicles the mode wants: one (the first one kept) or the three.
local function arrange(world)
  if mode == "all" then
    for i, which in ipairs(ORDER) do
      if agents[i] then agents[i].mode = which else agents[i] = spawn(world, which) end
    end
  else
    for i = #agents, 2, -1 do world:remove(agents[i].v); agents[i] = nil end
    agents[1].mode = mode
  end
  for _, a in ipairs(agents) do
    a.v:stop()
    a.v:contain{ margin = 40 }
    a.v.state = a.mode
  end
end

function M.load(world)
  mode, switched = "all", true
  agents = { spawn(world, "arrive") }
end

-- Calling a behaviour that is already on only moves its target, so this runs every step.
function M.update(world)
  tx, ty = target(world)
  if switched then
    arrange(world)
    switched = false
  end
  for _, a in ipairs(agents) do
    local v = a.v
    if a.mode == "seek" then v:seek(tx, ty)
    elseif a.mode == "flee" then v:flee(tx, ty, { panic_distance = 200 })
    else v:arrive(tx, ty, { slowing_radius = 120 }) end
    if world.step_count % 3 == 0 then
      a.trail[#a.trail + 1] = { v.x, v.y }
      if #a.trail > 90 then table.remove(a.trail, 1) end
    end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.state survive).
function M.reload(world)
  agents = {}
  for _, v in ipairs(world:vehicles("agent")) do agents[#agents + 1] = { v = v, mode = v.state, trail = {} } end
  mode = #agents > 1 and "all" or (agents[1] and agents[1].mode or "all")
end

function M.keypressed(key)
  local new = ({ ["1"] = "seek", ["2"] = "flee", ["3"] = "arrive", ["4"] = "all" })[key]
  if new and new ~= mode then mode, switched = new, true end
end

-- Where a circle's label goes: over the circle, or under it when the world's top is in the way.
local function circle_label_y(r)
  if ty - r - 20 >= 0 then return ty - r - 20 end
  return ty + r + 4
end

function M.draw(gfx)
  gfx.circle(tx, ty, 6, { 250, 220, 80 }, true)
  gfx.text(tx, ty - 30, "target", { 250, 220, 80 }, "center") -- (above: the vehicles' names go under them)
  local shows, placed = {}, {}
  for _, a in ipairs(agents) do
    shows[a.mode] = true
    local c = a.v.color
    for i = 2, #a.trail do
      gfx.line(a.trail[i - 1][1], a.trail[i - 1][2], a.trail[i][1], a.trail[i][2], { c[1], c[2], c[3], 60 + 2 * i })
    end
    if #agents > 1 then -- its name under it, lower still where another name is already
      local y = a.v.y + 14
      for _, p in ipairs(placed) do
        if math.abs(p[1] - a.v.x) < 60 and math.abs(p[2] - y) < 18 then y = p[2] + 18 end
      end
      placed[#placed + 1] = { a.v.x, y }
      gfx.text(a.v.x, y, a.mode, c, "center")
    end
  end
  if shows.flee then
    gfx.circle(tx, ty, 200, { 240, 100, 120, 110 })
    gfx.text(tx, circle_label_y(200), "panic distance 200: flees only inside", { 240, 130, 140 }, "center")
  end
  if shows.arrive then
    gfx.circle(tx, ty, 120, { 120, 200, 255, 110 })
    gfx.text(tx, circle_label_y(120), "slowing radius 120: brakes inside", { 140, 210, 255 }, "center")
  end
  gfx.hud("mode: " .. (mode == "all" and "all three" or mode) .. "   (1 seek, 2 flee, 3 arrive, 4 all three)")
end

return M
