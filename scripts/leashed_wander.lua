-- Wander on a leash: wandering that stays near each vehicle's spawn point.
-- Blue: leash "pull" (pulled home past the return radius); green: leash "roam". A click moves the homes.
-- Try: the blue ones stray and get pulled back, the green ones never leave their circle; click to move every home.
local M = { world = { width = 1000, height = 600, edges = "contain", seed = 5 } }

-- What F1 lists under the program's keys; keypressed and the mouse callbacks below do these.
M.keys = {
  { "left click", "move every home (the first one to the click)" },
}

M.RADIUS = 90 -- return radius (pull) and max distance (roam), units
local homes = {}

function M.load(world)
  homes = {}
  for i = 1, 6 do
    local method = i <= 3 and "pull" or "roam"
    local x, y = 250 + ((i - 1) % 3) * 250, method == "pull" and 170 or 430 -- pull above, roam below
    local v = world:spawn{ kind = method, x = x, y = y, max_speed = 80, max_force = 200, radius = 7,
                           color = method == "pull" and { 120, 200, 255 } or { 150, 230, 130 },
                           data = { home = { x, y } } }
    if method == "pull" then
      v:wander{ radius = 30, distance = 60, jitter = 90, leash = "pull", return_radius = M.RADIUS }
    else
      v:wander{ leash = "roam", max_distance = M.RADIUS, roam_rate = 0.3 }
    end
    homes[#homes + 1] = { v = v, x = x, y = y, method = method, trail = {} }
  end
  M.homes = homes
end

-- Each wanderer's last 12 s, for its trail: where the pulled ones strayed and were brought back.
function M.update(world)
  if world.step_count % 4 ~= 0 then return end
  for _, h in ipairs(homes) do
    h.trail[#h.trail + 1] = { h.v.x, h.v.y }
    if #h.trail > 180 then table.remove(h.trail, 1) end
  end
end

-- A hot reload runs this file again, so its locals start afresh: pick the run back up from the
-- world (the vehicles and their v.data survive).
function M.reload(world)
  homes = {}
  for _, v in ipairs(world:vehicles()) do
    homes[#homes + 1] = { v = v, x = v.data.home[1], y = v.data.home[2], method = v.kind, trail = {} }
  end
  M.homes = homes
end

-- A click moves every anchor by the offset from the first home to the click, as far as every home's
-- circle stays inside the world (a home beyond the edge would leash its wanderer to a wall).
function M.mousepressed(x, y, button)
  if button ~= 1 then return end
  local dx, dy = x - homes[1].x, y - homes[1].y
  local width, height, r = M.world.width, M.world.height, M.RADIUS
  for _, home in ipairs(homes) do
    dx = math.max(r - home.x, math.min(width - r - home.x, dx))
    dy = math.max(r - home.y, math.min(height - r - home.y, dy))
  end
  for _, h in ipairs(homes) do
    h.x, h.y = h.x + dx, h.y + dy
    h.v:wander{ anchor = { h.x, h.y } }
    h.v.data.home = { h.x, h.y }
  end
end

function M.draw(gfx)
  for _, h in ipairs(homes) do
    local c = h.method == "pull" and { 120, 200, 255 } or { 150, 230, 130 }
    for i = 2, #h.trail do
      local a, b = h.trail[i - 1], h.trail[i]
      gfx.line(a[1], a[2], b[1], b[2], { c[1], c[2], c[3], 20 + i })
    end
    gfx.circle(h.x, h.y, M.RADIUS, { c[1], c[2], c[3], 90 })
    gfx.circle(h.x, h.y, 3, { c[1], c[2], c[3], 160 }, true)
    -- the leash: from home to its wanderer, bright while it is past the circle
    local d = math.sqrt((h.v.x - h.x) ^ 2 + (h.v.y - h.y) ^ 2)
    gfx.line(h.x, h.y, h.v.x, h.v.y, d > M.RADIUS and { 255, 230, 120, 220 } or { c[1], c[2], c[3], 70 })
    gfx.text(h.x, h.y - M.RADIUS - 20, h.method == "pull" and "pull: strays, pulled back" or "roam: never leaves",
      { c[1], c[2], c[3], 200 }, "center")
  end
  gfx.hud("blue: leash = \"pull\" (return radius 90)    green: leash = \"roam\" (max distance 90)")
  gfx.hud("the line is each leash: yellow while its wanderer is past the circle")
end

return M
